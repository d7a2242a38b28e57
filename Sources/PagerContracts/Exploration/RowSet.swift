/// A set of the kit's row IDs, as the explorer's oracle keeps them after every step.
///
/// The explorer's schedules deliver small row IDs (1–8 at random, twice the request number in
/// the exhaustive search), so IDs 0–63 are bits of one word: inserting and looking up need
/// neither hashing nor allocation. Any other ID (a schedule written by hand may use any) goes
/// to an ordinary set beside it.
struct RowSet: Hashable, ExpressibleByArrayLiteral {
    private var small: UInt64 = 0
    private var others: Set<Int> = []

    init() {}

    init(arrayLiteral ids: Int...) {
        self.init(ids)
    }

    init<IDs: Sequence<Int>>(_ ids: IDs) {
        formUnion(ids)
    }

    var isEmpty: Bool { small == 0 && others.isEmpty }

    func contains(_ id: Int) -> Bool {
        if let bit = Self.bit(id) { return small & bit != 0 }
        return others.contains(id)
    }

    /// Adds `id`; returns whether it was new.
    @discardableResult
    mutating func insert(_ id: Int) -> Bool {
        guard let bit = Self.bit(id) else { return others.insert(id).inserted }
        defer { small |= bit }
        return small & bit == 0
    }

    mutating func formUnion<IDs: Sequence<Int>>(_ ids: IDs) {
        for id in ids { insert(id) }
    }

    mutating func formUnion(_ other: RowSet) {
        small |= other.small
        if !other.others.isEmpty { others.formUnion(other.others) }
    }

    func union(_ other: RowSet) -> RowSet {
        var union = self
        union.formUnion(other)
        return union
    }

    mutating func subtract(_ other: RowSet) {
        small &= ~other.small
        if !other.others.isEmpty { others.subtract(other.others) }
    }

    /// The bit of `id` in the word, or `nil` when it is kept in the set.
    private static func bit(_ id: Int) -> UInt64? {
        (0..<64).contains(id) ? 1 << UInt64(id) : nil
    }
}
