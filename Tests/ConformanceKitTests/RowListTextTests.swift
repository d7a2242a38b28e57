import PagerContracts
import Testing

@Suite("Long pages read as runs in messages and timelines")
struct RowListTextTests {
    @Test("A run of ten or more consecutive IDs is written as its ends, and a repeat stands out")
    func longRunsCollapse() {
        let ids = [1, 2, 3] + Array(100..<400) + [500, 1, 501]
        #expect(RowListText.text(ids) == "[1, 2, 3, 100…399, 500, 1, 501]")
    }

    @Test("Shorter runs, descending rows and the empty list are written in full")
    func shortRunsStay() {
        #expect(RowListText.text(Array(1...9)) == "[1, 2, 3, 4, 5, 6, 7, 8, 9]")
        #expect(RowListText.text(Array((1...12).reversed())) == "[12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]")
        #expect(RowListText.text([]) == "[]")
        #expect(RowListText.text(Array(1...10)) == "[1…10]")
    }
}
