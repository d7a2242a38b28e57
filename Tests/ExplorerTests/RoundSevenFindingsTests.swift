@testable import BundledImplementations
import ConformanceTesting
import Testing

/// What the seventh outside round showed, pinned with its implementations (names changed only):
/// hints that point at the cause, the explorer's 400 that quotes what it rejects, and a submit
/// saved on the queue's own `DispatchQueue` that the explorer read storage before.
struct RoundSevenFindingsTests {
    /// `TaskSearchViewModel` drops the old query's late answer but ends the loading state in a
    /// `defer`: P4, P5 and P8 said "compare the whole ticket", which its code already does.
    @Test(arguments: ["P4", "P5", "P8"])
    func aCleanupOnTheStalePathIsNamed(_ contract: String) async throws {
        let pager = try #require(BundledImplementations.pagers.first { $0.name == "TaskSearchViewModel" })
        let violation = try #require(await pager.run(ContractID(contract)).outcome.violations.first)
        #expect(violation.summary.hasSuffix("but loading changed from true to false."), "\(violation.summary)")
        #expect(violation.hint?.hasPrefix("Only the loading state changed: a cleanup that runs whatever the answer") == true)
    }

    /// `PrefetchTagTimeline`'s retry starts a load only from the idle phase a failure left: P6's
    /// hint began with where to advance the page position.
    @Test func aRetryThatStartsNothingIsNamed() async throws {
        let pager = try #require(BundledImplementations.pagers.first { $0.name == "PrefetchTagTimeline" })
        let violation = try #require(await pager.run("P6").outcome.violations.first)
        #expect(violation.hint?.hasPrefix("The retry started no request") == true, "\(violation.hint ?? "no hint")")
    }

    /// `ContextStoreOutbox` keeps a 400's message whole. The explorer's 400 quoted nothing, so it
    /// never found it; its terminal answers now quote the rejected values.
    @Test func theExplorersValidationErrorQuotesTheRejectedValues() async throws {
        let schedule: QueueSchedule = [.submit, .sendingPass, .answer(send: 1, .status(400))]
        let report = await schedule.run(against: ContextStoreOutboxAdapter.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("Q10 no sensitive data in diagnostics"), "\(violation.summary)")
    }

    /// `ContextStoreOutbox` saves a submit in a `perform` block on its private queue. With the
    /// task priorities spent the explorer took that submit as joined to a parked request and read
    /// storage before it returned: a false Q1, Q6 or Q12 in 3 to 7 of 500 schedules (seed 7).
    /// The guess now stands only after the adapter's barrier ran that work out.
    @Test func aGuessedJoinWaitsForTheQueuesOwnWork() async throws {
        let schedule: QueueSchedule = [
            .update, .update, .submit, .sendingPass, .sendingPass, .answer(send: 2, .success), .submit,
            .answer(send: 3, .success), .submit,
        ]
        for _ in 0..<40 {
            let report = await schedule.run(against: ContextStoreOutboxAdapter.self)
            #expect(report.outcome == .passed, "\(report.fullText)")
            if report.outcome != .passed { break }
        }
    }
}
