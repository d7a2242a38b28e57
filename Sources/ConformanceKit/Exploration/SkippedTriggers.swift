/// The triggers a search skipped because the kit could not have settled them by evidence,
/// counted by kind (`.bottomReached`, `.refresh`, `.submit`, …), so a headline can say which
/// kinds went unexplored, not only how many.
package struct SkippedTriggers: Hashable, Sendable {
    /// How many of each kind, by the step's name.
    package private(set) var byKind: [String: Int] = [:]

    /// None skipped.
    package init() {}

    /// Every skipped trigger, whatever its kind.
    package var total: Int { byKind.values.reduce(0, +) }

    /// Counts one more trigger of `kind`.
    package mutating func add(_ kind: String) {
        byKind[kind, default: 0] += 1
    }

    /// Both counts together.
    package static func + (lhs: SkippedTriggers, rhs: SkippedTriggers) -> SkippedTriggers {
        var sum = lhs
        sum.byKind.merge(rhs.byKind, uniquingKeysWith: +)
        return sum
    }

    /// `200 .bottomReached, 126 .refresh`: most first, then by name, so the text is the same on
    /// every run that skipped the same.
    package static func breakdown(_ byKind: [String: Int]) -> String {
        byKind.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
