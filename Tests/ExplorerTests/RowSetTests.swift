import ConformanceKit
@testable import PagerContracts
import Testing

/// The oracle's row set keeps IDs 0–63 as bits and every other ID in a set: both halves
/// answer as a `Set<Int>` would, for the IDs the explorer generates and for any a hand-written
/// schedule may use (negative, 64 and beyond).
@Suite("The explorer's row set")
struct RowSetTests {
    @Test("random inserts, unions and subtractions agree with Set<Int>", arguments: [1, 2, 3] as [UInt64])
    func agreesWithASet(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func randomID() -> Int { random.below(140) - 10 }
        var rows: RowSet = []
        var expected: Set<Int> = []
        for _ in 0..<2_000 {
            switch random.below(4) {
            case 0:
                let id = randomID()
                #expect(rows.insert(id) == expected.insert(id).inserted, "insert \(id), seed \(seed)")
            case 1:
                let ids = (0..<random.below(4)).map { _ in randomID() }
                rows.formUnion(RowSet(ids))
                expected.formUnion(ids)
            case 2:
                let ids = (0..<random.below(6)).map { _ in randomID() }
                rows.subtract(RowSet(ids))
                expected.subtract(ids)
            default:
                let ids = (0..<random.below(3)).map { _ in randomID() }
                rows = rows.union(RowSet(ids))
                expected.formUnion(ids)
            }
            for id in -10..<130 where rows.contains(id) != expected.contains(id) {
                Issue.record("contains(\(id)) is \(rows.contains(id)), a Set says \(expected.contains(id)); seed \(seed)")
            }
            #expect(rows.isEmpty == expected.isEmpty)
        }
    }

    @Test("equal contents are equal and hash alike, whichever way they were built")
    func equalityFollowsTheContents() {
        var built: RowSet = []
        for id in [70, 3, -1, 63, 0] { built.insert(id) }
        let literal: RowSet = [0, 63, -1, 3, 70]
        #expect(built == literal)
        #expect(built.hashValue == literal.hashValue)
        built.subtract([70])
        #expect(built != literal)
    }
}
