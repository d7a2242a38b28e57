import BundledImplementations
import ConformanceKit
import Foundation
import HTMLReport
import Testing

@Suite struct ReportPageWriterTests {
    static let awkwardName = "Pager<T & \"U\">'é' 👩‍💻"

    static func document(rows: Int, columns: Int, verdicts: [ReportVerdict] = ReportVerdict.known)
        -> ReportDocument
    {
        let columnList = (1...columns).map {
            ReportColumn(
                id: "P\($0)", name: "rule <\($0)> & co", tier: "required",
                rule: "Rule \($0) says \"x\" & <y>.")
        }
        let rowList = (1...rows).map { row in
            ReportRow(
                name: row == 1 ? awkwardName : "Implementation\(row)", kind: "mutant", level: "model",
                note: "note <\(row)>",
                cells: columnList.enumerated().map { index, column in
                    ReportCell(
                        column: column.id, verdict: verdicts[(row + index) % verdicts.count],
                        expected: "pass",
                        headline: "Expected </script> & <b>bold</b>, but “other”",
                        sections: [
                            ReportSection("Expected", "state: visible [1, 2] <&>", style: .lines),
                            ReportSection(
                                "Timeline (up to the failing step)",
                                "  1. bottom reached\n▶ 2. answer </script>", style: .lines),
                            ReportSection(
                                "Regression test", "@Test func x() { #expect(a < b && c > d) }", style: .code),
                        ])
                })
        }
        return ReportDocument(
            title: "Matrix <&>", source: "tests", runSeconds: 1.5, notes: ["note & <more>"],
            groups: [ReportGroup(family: "Pagers (P)", columns: columnList, rows: rowList)])
    }

    @Test func thePageIsSelfContained() {
        let html = ReportPageWriter().page(for: Self.document(rows: 3, columns: 4))
        for external in ["http://", "https://", "src=", "<link", "@import", "url(", "@font-face"] {
            #expect(!html.contains(external), "the page refers to something outside itself: \(external)")
        }
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
    }

    @Test func namesAndMessagesAreEscaped() {
        let html = ReportPageWriter().page(for: Self.document(rows: 2, columns: 2))
        #expect(html.contains("Pager&lt;T &amp; &quot;U&quot;&gt;&#39;é&#39; 👩‍💻"))
        #expect(!html.contains(Self.awkwardName))
        #expect(html.contains("<title>Matrix &lt;&amp;&gt;</title>"))
        // Only the page's own two script elements are closed.
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(!html.contains("<b>bold</b>"))
    }

    @Test func everyRowColumnAndCellIsOnThePage() {
        let document = Self.document(rows: 7, columns: 5)
        let html = ReportPageWriter().page(for: document)
        #expect(html.components(separatedBy: " data-i=\"").count - 1 == 35)
        for row in 2...7 { #expect(html.contains(">Implementation\(row)<")) }
        for column in 1...5 { #expect(html.contains(">P\(column)</th>")) }
        #expect(html.contains("7 implementations, 35 cells · run time 1.50 s"))
    }

    @Test func everyVerdictShowsASymbolAndAWord() {
        let verdicts = ReportVerdict.known + [ReportVerdict("flaky")]
        let html = ReportPageWriter().page(
            for: Self.document(rows: 1, columns: verdicts.count, verdicts: verdicts))
        for verdict in ReportVerdict.known {
            #expect(html.contains("\(verdict.symbol) \(verdict.shortLabel)</td>"), "\(verdict.word)")
        }
        #expect(html.contains("class=\"c v-blocked\" data-v=\"blocked\""))
        #expect(html.contains("⊘ blk</td>"))
        #expect(html.contains("class=\"c v-other\" data-v=\"flaky\""))
        #expect(html.contains("? flaky</td>"))
    }

    @Test func theSizeGrowsLinearlyWithTheCells() {
        let small = ReportPageWriter().page(for: Self.document(rows: 15, columns: 30)).utf8.count
        let large = ReportPageWriter().page(for: Self.document(rows: 60, columns: 30)).utf8.count
        let perCellSmall = Double(small) / 450
        let perCellLarge = Double(large) / 1800
        #expect(perCellLarge <= perCellSmall * 1.05)
        #expect(perCellLarge >= perCellSmall * 0.8)
    }

    @Test func writingReplacesTheFileInOneStep() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "report-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: url) }
        try ReportPageWriter().write(Self.document(rows: 2, columns: 2), to: url)
        let written = try String(contentsOf: url, encoding: .utf8)
        #expect(written.hasSuffix("</html>\n"))
    }

    @Test func aRealFailureKeepsEverySectionOfItsReport() async throws {
        let mutant = try #require(
            BundledImplementations.all.first { $0.name == "PagerWhoseTicketIsThePageNumber" })
        let entry = await mutant.matrixEntry(for: "P4")
        let verdict = ReportVerdict(entry: entry)
        #expect(verdict == .expectedFailure)
        let cell = ReportCell(report: entry.report, verdict: verdict, expected: entry.expected.rawValue)
        let titles = cell.sections.map(\.title)
        #expect(titles.contains("Expected"))
        #expect(titles.contains("Actual"))
        #expect(titles.contains("Difference (- expected, + actual)"))
        #expect(titles.contains("Hint"))
        let timeline = try #require(cell.sections.first { $0.title == "Timeline (up to the failing step)" })
        #expect(timeline.body.split(separator: "\n").last?.hasPrefix("▶") == true)
        #expect(cell.headline.hasPrefix("Expected nothing to change"))
    }

    @Test func aRecommendedRuleThatFailsIsAWarning() {
        let violation = Violation(
            tier: .recommended, summary: "Expected the list to stop, but it kept loading.")
        let report = ContractReport(
            contract: ContractCatalog.pager[11], subject: "X", outcome: .failed([violation]))
        let entry = MatrixEntry(
            implementation: "X", kind: .adopter, level: .model, report: report, expected: .pass)
        #expect(ReportVerdict(entry: entry) == .warning)
        let cell = ReportCell(report: report, verdict: .warning)
        #expect(cell.sections.map(\.title).contains("Violation (recommended rule: a warning)"))
    }

    @Test func aPassTheLedgerExpectsToFailIsFlagged() {
        let report = ContractReport(contract: ContractCatalog.pager[0], subject: "X", outcome: .passed)
        let entry = MatrixEntry(
            implementation: "X", kind: .mutant, level: .model, report: report, expected: .fail)
        #expect(ReportVerdict(entry: entry) == .unexpectedPass)
        let skipped = MatrixEntry(
            implementation: "X", kind: .mutant, level: .model,
            report: ContractReport(
                contract: ContractCatalog.pager[0], subject: "X", outcome: .notApplicable(reason: "r")),
            expected: .skip)
        #expect(ReportVerdict(entry: skipped) == .notApplicable)
    }
}
