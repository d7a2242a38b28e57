import ConformanceKit

extension ReportCell {
    /// A cell holding the whole of `report`: for each violation the finding, expected and actual
    /// state, difference, timeline up to the failing step and hint; the reason a contract does
    /// not apply; the notes; and the transcript of a run that did not fail.
    ///
    /// - Parameters:
    ///   - report: The engine's report.
    ///   - verdict: What the cell shows.
    ///   - expected: What the ledger expected, when there is a ledger.
    ///   - headline: The one-line summary; the report's first violation or reason by default.
    package init(
        report: ContractReport, verdict: ReportVerdict, expected: String? = nil, headline: String? = nil
    ) {
        var sections: [ReportSection] = [ReportSection("Subject", report.subject)]
        let violations = report.outcome.violations
        for (number, violation) in violations.enumerated() {
            let prefix = violations.count > 1 ? "Violation \(number + 1) of \(violations.count): " : ""
            let kind =
                switch violation.kind {
                case .contract:
                    violation.tier == .required ? "violation" : "violation (recommended rule: a warning)"
                case .adapterError: "adapter error"
                case .watchdog: "watchdog"
                case .crash: "crash"
                }
            sections.append(
                ReportSection(prefix + kind.prefix(1).uppercased() + kind.dropFirst(), violation.summary))
            if let expectedState = violation.expected {
                sections.append(ReportSection("Expected", expectedState, style: .lines))
            }
            if let actual = violation.actual {
                sections.append(ReportSection("Actual", actual, style: .lines))
            }
            if let difference = violation.difference {
                sections.append(ReportSection("Difference (- expected, + actual)", difference, style: .lines))
            }
            sections.append(
                ReportSection(
                    "Timeline (up to the failing step)", report.transcript.rendered(upTo: violation.step),
                    style: .lines))
            if let hint = violation.hint { sections.append(ReportSection("Hint", hint)) }
        }
        if case .notApplicable(let reason) = report.outcome {
            sections.append(ReportSection("Not applicable", reason))
        }
        if !report.notes.isEmpty {
            sections.append(
                ReportSection("Notes", report.notes.map { "- \($0)" }.joined(separator: "\n"), style: .lines))
        }
        if violations.isEmpty, !report.transcript.entries.isEmpty {
            sections.append(ReportSection("Transcript", report.transcript.rendered(), style: .lines))
        }
        let summary: String
        if let first = violations.first {
            summary = first.summary
        } else if case .notApplicable(let reason) = report.outcome {
            summary = reason
        } else {
            summary = ""
        }
        self.init(
            column: report.contract.id.rawValue, verdict: verdict, expected: expected,
            headline: headline ?? summary,
            sections: sections)
    }
}
