import ConformanceTesting
import Testing

/// A cell whose setup step fails because another rule is broken is blocked by that rule, not
/// failed under its own: the report, the ledger, the matrix entry and the bridge all say so.
@Suite struct BlockedOutcomeTests {
    static let p5 = ContractCatalog.descriptor("P5")!

    /// A P5 run whose setup ("bottom reached while page 2 of B loads") broke P1.
    static func blockedReport() async -> ContractReport {
        await ContractRun.execute(p5, subject: "PagerWithoutInFlightGuard", watchdog: .seconds(10)) {
            recorder in
            recorder.record("bottom reached → request #1 (page 1 of query A)")
            recorder.record("bottom reached → request #2 (page 1 of query A)")
            throw recorder.block(
                by: "P1",
                Violation(
                    summary: "Expected bottom reached while page 1 loads to start no request, but it started request #2.",
                    hint: "Set the in-flight ticket before the request starts."))
        }
    }

    @Test func aSetupStepBrokenByAnotherRuleBlocksTheCell() async throws {
        let report = await Self.blockedReport()
        #expect(report.outcome.word == "blocked")
        #expect(report.outcome.blockedBy == "P1")
        let violation = try #require(report.outcome.blockingViolation)
        #expect(violation.step == 2)
        #expect(violation.tier == .required)
        #expect(report.outcome.violations.isEmpty)
        #expect(report.hasErrors(strict: false))
        #expect(report.blockingContract?.title == "P1 duplicate bottom trigger")
    }

    @Test func theBlockedMessageIsTitledWithTheBlockingRule() async throws {
        let report = await Self.blockedReport()
        let message = try #require(report.messages.first)
        #expect(message.hasPrefix("P1 duplicate bottom trigger (blocks P5 stale failure): Expected bottom reached"))
        #expect(message.contains("Rule broken (P1): While a next-page request is in flight"))
        #expect(message.contains("▶ 2. bottom reached → request #2"))
        #expect(message.contains("Hint (P1): Set the in-flight ticket"))
        #expect(report.headline.hasPrefix("P5 stale failure: blocked by P1 duplicate bottom trigger"))
    }

    @Test func aViolationOfTheOwnRuleWinsOverABlockedStep() async {
        let report = await ContractRun.execute(Self.p5, subject: "X", watchdog: .seconds(10)) {
            recorder in
            recorder.add(Violation(summary: "own"))
            throw recorder.block(by: "P1", Violation(summary: "setup"))
        }
        #expect(report.outcome.word == "failed")
    }

    @Test func ledgersListBlockedCellsWithTheirBlocker() async {
        let ledger: Ledger = [
            .fails("P1", because: "no in-flight guard"),
            .blocked("P5", by: "P1", because: "P5's setup needs the duplicate trigger ignored"),
            .blocked("P6", by: "P77"),
        ]
        #expect(ledger.contracts == ["P1"])
        #expect(ledger.blocker(for: "P5") == "P1")
        #expect(ledger.expectation(for: "P5", applicability: .applicable) == .blocked)
        #expect(ledger.expectation(for: "P1", applicability: .applicable) == .fail)
        #expect(ledger.unknownEntries().map(\.contract) == ["P6"])

        let report = await Self.blockedReport()
        let matching = MatrixEntry(
            implementation: "X", kind: .mutant, level: .model, report: report, expected: .blocked,
            expectedBlocker: "P1")
        #expect(matching.matchesLedger)
        #expect(matching.message.hasPrefix("blocked by P1: Expected bottom reached"))
        let otherBlocker = MatrixEntry(
            implementation: "X", kind: .mutant, level: .model, report: report, expected: .blocked,
            expectedBlocker: "P4")
        #expect(!otherBlocker.matchesLedger)
        #expect(otherBlocker.mismatch?.contains("blocked by P1, but the ledger expects it blocked by P4") == true)
        let expectedToFail = MatrixEntry(
            implementation: "X", kind: .mutant, level: .model, report: report, expected: .fail)
        #expect(!expectedToFail.matchesLedger)
    }

    @Test func theBridgeRecordsAnIssueTitledWithTheBlockingRule() async {
        let report = await Self.blockedReport()
        withKnownIssue {
            ConformanceReporting.record(report, sourceLocation: #_sourceLocation)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix("P1 duplicate bottom trigger (blocks P5 stale failure)")
            }
        }
    }
}
