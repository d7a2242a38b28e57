import ConformanceKit
import Foundation
import HTMLReport
import Testing

@Suite struct EventStreamReaderTests {
    typealias F = EventStreamFixture
    static let pagerTest = "MyAppTests.myPagerConforms(_:)/PagerTests.swift:12:2"
    static let queueSkips = "MyAppTests.outboxSkipsNothingSilently()/QueueTests.swift:30:2"
    static let failure = """
        P4 late stale response: Expected nothing to change after the late answer to request #2, but the visible items changed.
          Rule: After the query changes, a response to any earlier request changes nothing.
          Subject: MyPager<Int> & "co"
          Expected state: visible [101, 102], loading true
          Actual   state: visible [101, 102, 103], loading false
          Difference (- expected, + actual):
            + 103  (position 3 shown)
          Timeline (up to the failing step):
              1. bottom reached → request #1 (page 1 of query A)
            ▶ 2. answer request #2 (page 2 of query A) [stale]: rows [103]
          Hint: Compare the response's whole ticket with the one in flight.
        """

    static var teamRun: [String] {
        [
            F.test(pagerTest, name: "myPagerConforms(_:)"),
            F.test(queueSkips, name: "outboxSkipsNothingSilently()", parameterized: false),
            F.test("MyAppTests.helper()/X.swift:1:1", name: "helper()", parameterized: false),
            F.runStarted,
            F.caseStarted(pagerTest, "P1 duplicate bottom trigger"),
            F.caseStarted(pagerTest, "P4 late stale response"),
            F.issue(pagerTest, "P4 late stale response", failure),
            F.attachment(
                pagerTest, "P4 late stale response", name: "P4 MyPager<Int> & \"co\".txt",
                text: "MyPager — P4 late stale response: …\n\nTranscript:\n  1. bottom reached"),
            F.caseStarted(
                pagerTest,
                "P9 cursor carried by the ticket (not applicable: needs cursor pagination; the adapter uses page numbers)"
            ),
            F.caseStarted(pagerTest, "P12 no-progress stall"),
            F.attachment(
                pagerTest, "P12 no-progress stall", name: "P12 MyPager.txt",
                text: "MyPager — P12 no-progress stall: Expected the list to stop, but it kept loading.\n"),
            F.caseStarted(pagerTest, "P5 stale failure"),
            F.issue(
                pagerTest, "P5 stale failure", "P5 stale failure: Expected x, but y.\n  Subject: MyPager",
                known: true),
            F.attachment(
                queueSkips, nil, name: "Q10 OutboxAdapter (not applicable).txt",
                text:
                    "Q10 no sensitive data in diagnostics was skipped, not passed: it does not apply to OutboxAdapter (needs exposesDiagnostics (declare it))."
            ),
            F.issue("MyAppTests.helper()/X.swift:1:1", nil, "Expectation failed: 1 == 2"),
            F.runEnded,
        ]
    }

    func read(_ lines: [String]) throws(EventStreamError) -> ReportDocument {
        try EventStreamReader().document(from: F.stream(lines), source: "events.jsonl")
    }

    @Test func aTeamsRunBecomesAMatrixOfItsAdapters() throws {
        let document = try read(Self.teamRun)
        #expect(document.groups.map(\.family) == ["Pagers (P)", "Write queues (Q)", "Other tests"])
        let pagers = try #require(document.groups.first)
        #expect(pagers.rows.map(\.name) == [#"MyPager<Int> & "co""#])
        let verdicts = Dictionary(uniqueKeysWithValues: pagers.rows[0].cells.map { ($0.column, $0.verdict) })
        #expect(
            verdicts == [
                "P1": .passed, "P4": .failed, "P9": .notApplicable, "P12": .warning, "P5": .expectedFailure,
            ])
        #expect(pagers.columns.map(\.id) == ["P1", "P4", "P5", "P9", "P12"])
        #expect(pagers.columns[1].rule == ContractCatalog.pager.first { $0.id == "P4" }?.rule)
        #expect(document.runSeconds == 2.5)
    }

    @Test func aFailureKeepsEverySectionTheKitRecorded() throws {
        let document = try read(Self.teamRun)
        let cell = try #require(document.groups[0].rows[0].cells.first { $0.column == "P4" })
        #expect(
            cell.headline
                == "Expected nothing to change after the late answer to request #2, but the visible items changed."
        )
        let titles = cell.sections.map(\.title)
        #expect(
            titles == [
                "Issue: error at PagerTests.swift:14", "Rule", "Subject", "Expected", "Actual",
                "Difference (- expected, + actual)", "Timeline (up to the failing step)", "Hint",
                #"Attachment: P4 MyPager<Int> & "co".txt"#,
            ])
        let timeline = try #require(cell.sections.first { $0.title.hasPrefix("Timeline") })
        #expect(timeline.body.contains("▶ 2. answer request #2"))
    }

    @Test func aSkippedQueueContractArrivesThroughItsAttachment() throws {
        let document = try read(Self.teamRun)
        let queues = try #require(document.groups.first { $0.family.hasPrefix("Write queues") })
        #expect(queues.rows.map(\.name) == ["OutboxAdapter"])
        #expect(queues.rows[0].cells.map(\.verdict) == [.notApplicable])
        #expect(queues.rows[0].cells[0].headline == "needs exposesDiagnostics (declare it)")
        #expect(queues.columns.map(\.title) == ["Q10 no sensitive data in diagnostics"])
    }

    @Test func otherTestsKeepTheirIssues() throws {
        let document = try read(Self.teamRun)
        let others = try #require(document.groups.last)
        #expect(others.rows.map(\.name) == ["helper()"])
        #expect(others.rows[0].cells[0].verdict == .failed)
        #expect(others.rows[0].cells[0].sections.contains { $0.body.contains("Expectation failed: 1 == 2") })
    }

    @Test func theReportPageHoldsEveryCell() throws {
        let html = ReportPageWriter().page(for: try read(Self.teamRun))
        #expect(html.contains("MyPager&lt;Int&gt; &amp; &quot;co&quot;"))
        #expect(html.components(separatedBy: " data-i=\"").count - 1 == 7)
    }

    @Test func anArgumentThatOnlyLooksLikeAContractIsAnOtherTest() throws {
        let id = "MyAppTests.prices(_:)/PriceTests.swift:3:2"
        let document = try read([
            F.test(id, name: "prices(_:)"), F.runStarted, F.caseStarted(id, "P4 price of a pear"), F.runEnded,
        ])
        #expect(document.groups.map(\.family) == ["Other tests"])
        #expect(document.groups[0].rows.map(\.name) == ["prices(_:) · P4 price of a pear"])
    }

    @Test func aCellBlockedByAnotherRuleIsShownAsBlocked() throws {
        let document = try read([
            F.test(Self.pagerTest, name: "myPagerConforms(_:)"), F.runStarted,
            F.caseStarted(Self.pagerTest, "P4 late stale response"),
            F.issue(
                Self.pagerTest, "P4 late stale response",
                "P1 duplicate bottom trigger (blocks P4 late stale response): Expected one request for page 2, "
                    + "but the bottom trigger started 2.\n  Blocked: P4 late stale response was not judged\n  Subject: MyPager"),
            F.runEnded,
        ])
        let cell = try #require(document.groups.first?.rows.first?.cells.first)
        #expect(cell.verdict == .blocked)
        #expect(cell.headline.hasPrefix("P1 duplicate bottom trigger (blocks P4 late stale response)"))
    }

    @Test func aStreamCutMidLineIsTorn() throws {
        var lines = Self.teamRun
        lines.removeLast()
        let stream = F.stream(lines)
        let torn = stream.prefix(stream.count - 40)
        let error = #expect(throws: EventStreamError.self) {
            try EventStreamReader().document(from: Data(torn), source: "events.jsonl")
        }
        #expect(error?.line == lines.count)
        #expect(error?.problem.contains("cut short") == true)
    }

    @Test func aStreamWithoutItsRunEndedEventIsTorn() throws {
        let error = #expect(throws: EventStreamError.self) { try read(Array(Self.teamRun.dropLast())) }
        #expect(error?.line == Self.teamRun.count - 1)
        #expect(error?.description.contains("without a runEnded event") == true)
        #expect(error?.expected.contains("runEnded") == true)
    }

    @Test func aStreamOfAnotherVersionNamesTheVersionItNeeds() throws {
        let newer = Self.teamRun.map {
            $0.replacingOccurrences(of: #""version":0"#, with: #""version":"6.3.0""#)
        }
        let error = #expect(throws: EventStreamError.self) { try read(newer) }
        #expect(error?.line == 1)
        #expect(error?.problem.contains("6.3.0") == true)
        #expect(error?.expected.contains("--event-stream-version 0") == true)
    }

    @Test func aForeignFileIsRejectedAtItsFirstLine() throws {
        let json = #expect(throws: EventStreamError.self) { try read([#"{"name":"not a test record"}"#]) }
        #expect(json?.line == 1)
        #expect(json?.problem.contains("not a Swift Testing event stream record") == true)
        let text = #expect(throws: EventStreamError.self) {
            try read(["// swift-tools-version: 6.1", "import PackageDescription"])
        }
        #expect(text?.line == 1)
        #expect(text?.problem.contains("not JSON") == true)
        let kind = #expect(throws: EventStreamError.self) {
            try read([#"{"version":0,"kind":"other","payload":{}}"#])
        }
        #expect(kind?.problem.contains("\"other\"") == true)
    }

    @Test func twoRunsInOneFileAreRejected() throws {
        let error = #expect(throws: EventStreamError.self) {
            try read(Self.teamRun + [F.runStarted, F.runEnded])
        }
        #expect(error?.line == Self.teamRun.count + 1)
        #expect(error?.problem.contains("after runEnded") == true)
    }

    @Test func anEmptyStreamIsRejected() throws {
        let error = #expect(throws: EventStreamError.self) {
            try EventStreamReader().document(from: Data(), source: "events.jsonl")
        }
        #expect(error?.line == nil)
        #expect(error?.problem == "the stream is empty")
    }

    @Test func aBadLineInTheMiddleIsNamed() throws {
        var lines = Self.teamRun
        lines.insert("{\"kind\":\"event\",", at: 5)
        let error = #expect(throws: EventStreamError.self) { try read(lines) }
        #expect(error?.line == 6)
    }
}
