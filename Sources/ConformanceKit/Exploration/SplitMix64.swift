/// A small, seeded random number generator (SplitMix64): the same seed gives the same numbers
/// on every platform and every run.
///
/// The explorer takes all of its randomness from one printed seed. Schedule `i` of a run gets
/// its own generator, ``forSchedule(_:of:)``, so schedules can run on any core in any order and
/// still be reproduced one by one.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = random.below(6)   // 0 ..< 6, the same on every machine
/// ```
package struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    /// The generator's whole state.
    package private(set) var state: UInt64

    /// Creates a generator.
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    package init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0 ..< bound`, computed by the kit itself (not by the standard library, whose
    /// algorithm may change), so a printed seed reproduces a run on any toolchain.
    /// - Parameter bound: The exclusive upper bound; must be positive.
    package mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next() % UInt64(bound))
    }

    /// `true` with probability `numerator / denominator`.
    package mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One of `choices`, each as likely as its weight (one draw of ``below(_:)``).
    /// - Parameter choices: Positive weights and their values; must not be empty.
    package mutating func pick<Value>(weighted choices: [(weight: Int, value: Value)]) -> Value {
        var roll = below(choices.reduce(0) { $0 + $1.weight })
        for choice in choices {
            if roll < choice.weight { return choice.value }
            roll -= choice.weight
        }
        return choices[choices.count - 1].value
    }

    /// The generator for schedule `index` of a run seeded with `seed`.
    package static func forSchedule(_ index: Int, of seed: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }
}
