import ConformanceKit
import Testing

@Suite struct TranscriptTests {
    @Test func numbersStepsAndMarksTheFailingOne() {
        var transcript = Transcript()
        transcript.record("bottom reached → request #1 (page 1 of query A)")
        let failing = transcript.record("bottom reached → request #2 (page 1 of query A)")
        transcript.record("never shown")
        let rendered = transcript.rendered(upTo: failing)
        #expect(rendered == """
              1. bottom reached → request #1 (page 1 of query A)
            ▶ 2. bottom reached → request #2 (page 1 of query A)
            """)
    }

    @Test func saysWhenNothingHappened() {
        #expect(Transcript().rendered() == "  (no steps were taken)")
    }

    @Test func listDifferenceShowsMissingAndExtraItems() {
        #expect(listDifference(expected: [1, 2, 3], actual: [1, 3, 3]) == """
            - 2  (position 2 expected)
            + 3  (position 2 shown)
            """)
        #expect(listDifference(expected: [1], actual: [1]) == nil)
    }
}
