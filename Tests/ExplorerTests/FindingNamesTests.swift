@testable import BundledImplementations
import ConformanceTesting
import Testing

/// The explorer names a finding by the contract the fixed timelines hold it to, not by the
/// invariant that saw it: a stale answer by what it is and what made it stale, items lost to a
/// failure by P6 (found by the third independent trial, where all of these read P4 or P2), a
/// refresh whose first page does not replace the list by P11 (the seventh trial: P2 or P4).
@Suite struct FindingNamesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let subject: any PagerModelAdapter.Type
        let schedule: PagerSchedule
        let contract: ContractID
        let why: String
        var testDescription: String { "\(contract): \(why)" }
    }

    static let cases = [
        Case(
            subject: PagerThatShowsStaleFailures.self,
            schedule: [.bottomReached, .changeQuery, .fail(request: 1, .timeout)], contract: "P5",
            why: "an old query's timeout shown as an error"),
        Case(
            subject: PagerThatShowsStaleFailures.self,
            schedule: [.bottomReached, .changeQuery, .fail(request: 1, .cancelled)], contract: "P8",
            why: "an old query's cancellation error shown as an error"),
        Case(
            subject: PagerThatKeepsGenerationOnRefresh.self,
            schedule: [.bottomReached, .refresh, .deliver(request: 1, rows: [])], contract: "P11",
            why: "a page requested before a refresh accepted after it"),
        Case(
            subject: PagerWhoseTicketIsThePageNumber.self,
            schedule: [.bottomReached, .deliver(request: 1, rows: []), .changeQuery, .bottomReached, .redeliver(request: 1)],
            contract: "P4", why: "an old query's page 1, delivered again, accepted for the new query's page 1"),
        Case(
            subject: PagerThatClearsItemsOnFailure.self,
            schedule: [.bottomReached, .deliver(request: 1, rows: [1, 2]), .bottomReached, .fail(request: 2, .timeout)],
            contract: "P6", why: "a failure that empties the list"),
        Case(
            subject: InboxThatForgetsAFailedRefresh.self,
            schedule: [
                .bottomReached, .deliver(request: 1, rows: [1, 2]), .refresh, .fail(request: 2, .timeout), .retry,
                .deliver(request: 3, rows: [3]),
            ],
            contract: "P11", why: "a refresh whose first page, retried after a failure, is appended to the old list"),
    ]

    @Test(arguments: cases)
    func aFindingIsNamedByTheContractWhoseRuleItBreaks(_ testCase: Case) async throws {
        let report = await run(testCase.schedule, against: testCase.subject)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        let title = try #require(ContractCatalog.descriptor(testCase.contract)?.title)
        #expect(violation.summary.hasPrefix(title + " (invariant I"), "\(violation.summary)")
        #expect(report.contract.id == testCase.contract)
    }

    private func run<A: PagerModelAdapter>(_ schedule: PagerSchedule, against adapter: A.Type) async -> ContractReport {
        await schedule.run(against: A.self)
    }
}
