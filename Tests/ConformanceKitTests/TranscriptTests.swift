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

    @Test func collapsesTheStepsAfterOneIntoASummary() {
        var transcript = Transcript()
        let kept = transcript.record("start sending pass #1")
        transcript.record("— round 2 —")
        transcript.record("send #3 op-6")
        transcript.collapse(after: kept, into: "— round 2: nothing wrong —")
        transcript.record("— round 3 —")
        transcript.collapse(after: kept, into: "— rounds 2–3: nothing wrong —")
        let failing = transcript.record("send #5 op-8, send #6 op-8")
        #expect(transcript.rendered(upTo: failing) == """
              1. start sending pass #1
              2. — rounds 2–3: nothing wrong —
            ▶ 3. send #5 op-8, send #6 op-8
            """)
    }

    @Test func collapsingStillCountsAsProgressForTheWatchdog() {
        let recorder = TimelineRecorder(tier: .required)
        let kept = recorder.record("start")
        recorder.record("round 2")
        recorder.record("round 2's send")
        let before = recorder.progress
        recorder.collapse(after: kept, into: "round 2: nothing wrong")
        #expect(recorder.lastStep == 2)
        #expect(recorder.progress > before)
    }

    @Test func aRecordedViolationKeepsTheStepsItPointsAt() {
        let recorder = TimelineRecorder(tier: .required)
        let kept = recorder.record("start")
        recorder.record("round 2's send, twice")
        recorder.add(Violation(summary: "two requests for op-6 in flight"))
        recorder.collapse(after: kept, into: "round 2: nothing wrong")
        #expect(recorder.lastStep == 2)
    }

    @Test func echoedStepsReadBackWithTheirCollapses() {
        let echoed = [
            "\(StepEcho.prefix)1. start", "\(StepEcho.prefix)2. round 2", "a subject's own line",
            "\(StepEcho.prefix)3. round 2's send", "\(StepEcho.prefix)2. round 2: nothing wrong",
            "\(StepEcho.prefix)3. round 3 ⏎ its send",
        ].joined(separator: "\n")
        #expect(StepEcho.parse(echoed) == ["start", "round 2: nothing wrong", "round 3\nits send"])
    }

    @Test func listDifferenceShowsMissingAndExtraItems() {
        #expect(listDifference(expected: [1, 2, 3], actual: [1, 3, 3]) == """
            - 2  (position 2 expected)
            + 3  (position 2 shown)
            """)
        #expect(listDifference(expected: [1], actual: [1]) == nil)
    }
}
