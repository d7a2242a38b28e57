import ConformanceKit
import HTMLReport

extension ExploreRow {
    /// An exploration as a report page's document: one table per family, one row per
    /// implementation, one cell with the explorer's verdict; a finding opens its bug report,
    /// its shrunk schedule and the regression test to paste, each with a copy button.
    static func reportDocument(
        rows: [ExploreRow], results: [ExplorationResult], strategy: String, seconds: Double, succeeded: Bool
    ) -> ReportDocument {
        let column = ReportColumn(
            id: "found", name: "by the explorer",
            rule:
                "Generated schedules, the invariants checked after every step (I1–I6 for pagers; I7–I9 and the Q rules one state can break for write queues). A mutant must be found with a shrunk schedule no longer than the fixed contract timeline that catches it; a reference or an adopter must not be flagged."
        )
        let pairs = Array(zip(rows, results))
        let byFamily = Dictionary(grouping: pairs) {
            $0.0.level == "queue" ? "Write queues (explorer)" : "Pagers (explorer)"
        }
        let groups = byFamily.keys.sorted().map { family in
            ReportGroup(
                family: family, columns: [column],
                rows: (byFamily[family] ?? []).map { row, result in
                    ReportRow(
                        name: row.implementation, kind: row.kind, level: row.level, note: row.note,
                        cells: [row.cell(result)])
                })
        }
        let flagged = rows.filter { $0.kind != "mutant" && $0.found }.map(\.implementation)
        let mutants = rows.filter { $0.kind == "mutant" }
        var notes = [
            "\(mutants.filter(\.found).count) of \(mutants.count) mutants found; "
                + (flagged.isEmpty
                    ? "no reference or adopter flagged" : "flagged: " + flagged.joined(separator: ", "))
                + (succeeded ? " — OK" : " — FAILED")
        ]
        notes += rows.filter { !$0.ok }.map { "UNEXPECTED: \($0.line)" }
        return ReportDocument(
            title: "Explorer findings", source: "swift run conformance explore (\(strategy))",
            runSeconds: seconds,
            notes: notes, groups: groups)
    }

    /// The figures under the implementation's name.
    var note: String {
        guard found, let invariant, let steps else {
            return "no rule failed in \(schedules) schedules"
        }
        let fixed = fixedContract.map { "; fixed timeline \($0): \(fixedSteps ?? 0) steps" } ?? ""
        return
            "\(invariant) \(invariantName ?? "") — shrunk \(originalSteps ?? steps) → \(steps) steps\(fixed); after \(schedules) schedules"
    }

    private func cell(_ result: ExplorationResult) -> ReportCell {
        let verdict: ReportVerdict =
            !ok ? .failed : found ? .expectedFailure : .passed
        var sections = [
            ReportSection(
                "Verdict",
                ok
                    ? (found
                        ? "found, as a mutant must be" : "not flagged, as a reference or adopter must be")
                    : "UNEXPECTED: \(line)"),
            ReportSection("Exploration", result.headline + String(format: "; %.2f s", seconds)),
        ]
        for finding in result.unexpectedFindings {
            let report = ReportCell(report: finding.report, verdict: verdict)
            sections += report.sections
            sections.append(ReportSection("Shrunk schedule (\(finding.invariant.id))", finding.scheduleLiteral, style: .code))
            sections.append(
                ReportSection(
                    "Regression test for \(finding.invariant.id) (paste into a test target)", finding.regressionTest,
                    style: .code))
        }
        let headline =
            result.finding.map { $0.report.outcome.violations.first?.summary ?? $0.invariant.title }
            ?? "no rule failed in \(schedules) schedules"
        return ReportCell(
            column: "found", verdict: verdict, expected: kind == "mutant" ? "found" : "not flagged",
            headline: headline,
            sections: sections)
    }
}
