import Foundation
import HTMLReport

/// `conformance sample-page --implementations 60 --contracts 30 --html PATH`: a generated page
/// of the given size, with every verdict and a realistic report in each failing cell, for the
/// browser check's load, filter and size measurements.
///
/// - Returns: 0 when written, 1 when it cannot be, 2 for bad arguments.
func runSamplePage(arguments: [String]) -> Int32 {
    var remaining = arguments.dropFirst()
    var implementations = 60
    var contracts = 30
    var output: String?
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(
            Data("conformance sample-page: \(message)\nusage: conformance sample-page [--implementations N] [--contracts N] --html PATH\n".utf8))
        return 2
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--implementations":
            guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else { return fail("--implementations needs a positive number") }
            implementations = value
        case "--contracts":
            guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else { return fail("--contracts needs a positive number") }
            contracts = value
        case "--html":
            guard let value = remaining.popFirst() else { return fail("--html needs a file path") }
            output = value
        default:
            return fail("unknown argument \"\(argument)\"")
        }
    }
    guard let output else { return fail("give --html PATH") }
    let document = SampleReport.document(implementations: implementations, contracts: contracts)
    return writePage(document, to: output, command: "conformance sample-page") ? 0 : 1
}

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
                rule: "Rule \(number): a response to a request issued under an earlier query changes nothing — not the items, not `hasMore`, not the loading state.")
        }
        let rows = (1...implementations).map { row in
            ReportRow(
                name: "Implementation\(row)<T & \"U\">é", kind: kinds[row % kinds.count], level: levels[row % levels.count],
                note: "sample row \(row)",
                cells: columns.enumerated().map { index, column in
                    let verdict = verdicts[(row * 7 + index * 3) % verdicts.count]
                    guard verdict != .passed else {
                        return ReportCell(
                            column: column.id, verdict: verdict, expected: "pass",
                            sections: [ReportSection("Transcript", "  1. bottom reached → request #1 (page 1 of query A)\n  2. answer request #1: rows [1, 2, 3], hasMore true", style: .lines)])
                    }
                    return ReportCell(
                        column: column.id, verdict: verdict, expected: "fail",
                        headline: "Expected nothing to change after the late answer to request #2, but the visible items changed",
                        sections: [
                            ReportSection("Violation", "Expected nothing to change after the late answer to request #2 (page 2 of query A), but the visible items changed."),
                            ReportSection("Expected", "state: visible [101, 102], loading true, hasMore true", style: .lines),
                            ReportSection("Actual", "state: visible [101, 102, 103, 104], loading false, hasMore false", style: .lines),
                            ReportSection("Difference (- expected, + actual)", "+ 103  (position 3 shown)\n+ 104  (position 4 shown)", style: .lines),
                            ReportSection(
                                "Timeline (up to the failing step)",
                                (1...7).map { "  \($0). step \($0) <&> of the timeline" }.joined(separator: "\n") + "\n▶ 8. answer request #2 (stale)",
                                style: .lines),
                            ReportSection("Hint", "Compare the response's whole ticket with the one in flight before writing anything."),
                        ])
                })
        }
        return ReportDocument(
            title: "Sample report \(implementations) × \(contracts)", source: "swift run conformance sample-page",
            runSeconds: 0, notes: ["generated for the browser check"], groups: [ReportGroup(family: "Pagers (P)", columns: columns, rows: rows)])
    }
}
