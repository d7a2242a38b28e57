import ConformanceKit
import HTMLReport
import Testing

@Suite struct KitMessageTests {
    @Test func theKitsMessageSplitsIntoItsSections() {
        var transcript = Transcript()
        transcript.record("bottom reached → request #1 (page 1 of query A)")
        transcript.record("answer request #1 <&>: rows [1, 2]")
        let report = ContractReport(
            contract: ContractCatalog.pager[3], subject: "Pager<T>", outcome: .failed([]),
            transcript: transcript)
        let violation = Violation(
            summary: "Expected nothing to change, but \"it\" did.", expected: "state: visible [1]",
            actual: "state: visible [1, 2]",
            difference: "+ 2  (position 2 shown)", hint: "Compare the whole ticket.", step: 2)
        let sections = KitMessage.sections(of: report.message(for: violation))
        #expect(
            sections.map(\.title) == [
                "Finding", "Rule", "Subject", "Expected", "Actual", "Difference (- expected, + actual)",
                "Timeline (up to the failing step)", "Hint",
            ])
        #expect(sections[0].body == "P4 late stale response: Expected nothing to change, but \"it\" did.")
        #expect(sections[2].body == "Pager<T>")
        #expect(sections[3].body == "state: visible [1]")
        #expect(sections[4].body == "state: visible [1, 2]")
        #expect(sections[6].body.split(separator: "\n").last?.hasPrefix("▶ 2. answer request #1 <&>") == true)
        #expect(sections[7].body == "Compare the whole ticket.")
        #expect(KitMessage.subject(in: report.message(for: violation)) == "Pager<T>")
    }

    @Test func textTheKitDidNotWriteIsKeptWhole() {
        #expect(
            KitMessage.sections(of: "Expectation failed: (a → 1) == 2\nmore") == [
                ReportSection("Issue", "Expectation failed: (a → 1) == 2\nmore", style: .lines)
            ])
    }

    @Test func aPastedRegressionTestBecomesCode() {
        let text = "X: found I5\n\nRegression test (paste into a test target):\n\n@Test func r() {}\n"
        let sections = KitMessage.sections(of: text)
        #expect(sections.last == ReportSection("Regression test", "@Test func r() {}\n", style: .code))
    }
}
