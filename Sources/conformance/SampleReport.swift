import HTMLReport

/// A generated report of any size: every verdict, names and messages holding `<`, `&`,
/// quotes and non-ASCII, and failing cells with the sections a real report has.
enum SampleReport {
    static func document(implementations: Int, contracts: Int) -> ReportDocument {
        let verdicts: [ReportVerdict] = [
            .passed, .passed, .passed, .passed, .expectedFailure, .notApplicable, .warning, .failed, .blocked,
            ReportVerdict("flaky"), .unexpectedPass,
        ]
        let kinds = ["reference", "adopter", "mutant"]
        let levels = ["model", "async", "queue"]
        let columns = (1...contracts).map { number in
            ReportColumn(
                id: "P\(number)", name: "generated rule <\(number)> & “quotes”",
                tier: number % 5 == 0 ? "recommended" : "required",
                rule:
                    "Rule \(number): a response to a request issued under an earlier query changes nothing — not the items, not `hasMore`, not the loading state."
            )
        }
        let rows = (1...implementations).map { row in
            ReportRow(
                name: "Implementation\(row)<T & \"U\">é", kind: kinds[row % kinds.count],
                level: levels[row % levels.count],
                note: "sample row \(row)",
                cells: columns.enumerated().map { index, column in
                    let verdict = verdicts[(row * 7 + index * 3) % verdicts.count]
                    guard verdict != .passed else {
                        return ReportCell(
                            column: column.id, verdict: verdict, expected: "pass",
                            sections: [
                                ReportSection(
                                    "Transcript",
                                    "  1. bottom reached → request #1 (page 1 of query A)\n  2. answer request #1: rows [1, 2, 3], hasMore true",
                                    style: .lines)
                            ])
                    }
                    return ReportCell(
                        column: column.id, verdict: verdict, expected: "fail",
                        headline:
                            "Expected nothing to change after the late answer to request #\(row * 100 + index), but the visible items changed",
                        // Text unique to the cell, as summaries and states are; the timeline and
                        // hint repeat per contract, as they do in a real matrix.
                        sections: [
                            ReportSection(
                                "Violation",
                                "Expected nothing to change after the late answer to request #\(row * 100 + index) (page 2 of query A), but the visible items changed."
                            ),
                            ReportSection(
                                "Expected",
                                "state: visible [101, 102], loading true, hasMore true (row \(row), column \(index))",
                                style: .lines),
                            ReportSection(
                                "Actual",
                                "state: visible [101, 102, \(row), \(index)], loading false, hasMore false",
                                style: .lines),
                            ReportSection(
                                "Difference (- expected, + actual)",
                                "+ 103  (position 3 shown)\n+ 104  (position 4 shown)", style: .lines),
                            ReportSection(
                                "Timeline (up to the failing step)",
                                (1...7).map { "  \($0). step \($0) <&> of the timeline of \(column.id)" }
                                    .joined(separator: "\n") + "\n▶ 8. answer request #2 (stale)",
                                style: .lines),
                            ReportSection(
                                "Hint",
                                "Compare the response's whole ticket with the one in flight before writing anything."
                            ),
                        ])
                })
        }
        return ReportDocument(
            title: "Sample report \(implementations) × \(contracts)",
            source: "swift run conformance sample-page",
            runSeconds: 0, notes: ["generated for the browser check"],
            groups: [ReportGroup(family: "Pagers (P)", columns: columns, rows: rows)])
    }
}
