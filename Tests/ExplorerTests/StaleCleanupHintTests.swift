import ConformanceTesting
import Testing

/// What the twenty-fifth outside trial showed: for a late answer whose only effect was to end
/// the loading state, the fixed timelines led with the cause (a cleanup on every path) but the
/// explorer gave only the rule's hint, which for P11 says "bump the generation", as the trial's
/// view model already did; and it called a request of the current query, made stale by a
/// refresh, "from a non-current query".
struct StaleCleanupHintTests {
    @Test func aLateAnswerOfAnEarlierQueryThatEndsTheSpinnerIsNamedAsACleanup() async throws {
        let schedule: PagerSchedule = [.bottomReached, .changeQuery, .deliver(request: 1, rows: [1])]
        let report = await schedule.run(against: FeedThatEndsLoadingOnEveryAnswer.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(report.contract.id == "P4", "\(report.fullText)")
        #expect(violation.summary.contains("from a non-current query, to change nothing, but loading changed from true to false"), "\(violation.summary)")
        #expect(violation.hint?.hasPrefix("Only the loading state changed: a cleanup that runs whatever the answer") == true, "\(violation.hint ?? "no hint")")
    }

    @Test func aLateAnswerFromBeforeARefreshIsSaidToBeSo() async throws {
        let schedule: PagerSchedule = [.bottomReached, .refresh, .fail(request: 1, .timeout)]
        let report = await schedule.run(against: FeedThatEndsLoadingOnEveryAnswer.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(report.contract.id == "P11", "\(report.fullText)")
        #expect(violation.summary.contains("made before the refresh, to change nothing"), "\(violation.summary)")
        #expect(!violation.summary.contains("), from a non-current query"), "\(violation.summary)")
        #expect(violation.hint?.hasPrefix("Only the loading state changed") == true, "\(violation.hint ?? "no hint")")
    }

    /// A stale answer that changes more than the spinner keeps the rule's own hint alone.
    @Test func aStaleAnswerThatChangesMoreKeepsTheRulesHint() async throws {
        let schedule: PagerSchedule = [.bottomReached, .changeQuery, .fail(request: 1, .timeout)]
        let report = await schedule.run(against: PagerThatShowsEveryFailure.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(report.contract.id == "P5", "\(report.fullText)")
        #expect(violation.hint?.hasPrefix("Only the loading state changed") == false, "\(violation.hint ?? "no hint")")
    }
}

/// Shows the error of any failure, a late one of an earlier query too (P5).
private struct PagerThatShowsEveryFailure: PagerModelAdapter {
    private var generation = 0
    private var inFlight: Int?
    private var showsError = false

    mutating func bottomReached() -> PageRequest<Int>? {
        guard inFlight == nil else { return nil }
        inFlight = generation
        return PageRequest(generation, page: 1)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Int>? {
        generation += 1
        inFlight = generation
        showsError = false
        return PageRequest(generation, page: 1)
    }

    mutating func deliver(_ response: PageResponse, for ticket: Int) -> PageRequest<Int>? { nil }

    mutating func fail(_ failure: PageFailure, for ticket: Int) -> PageRequest<Int>? {
        inFlight = nil  // the bug: no ticket check
        showsError = true
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: [], isLoading: inFlight != nil, hasMore: true, showsError: showsError)
    }
}
