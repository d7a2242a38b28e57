@testable import BundledImplementations
import ConformanceTesting
import Testing

/// Only the server ends a list, and only for the query it answered: two pagers of the fourth
/// outside round, each correct in its author's eyes, and each judged under one rule by the
/// contracts and the explorer alike.
struct ServerEndsTheListTests {
    /// `HashtagTimelineController` ends its list when a page has fewer rows than its page size.
    /// The explorer's liveness check took its `hasMore: false` for an end, and passed it.
    @Test func anEndReadFromAShortPageIsP1() async throws {
        let schedule: PagerSchedule = [.bottomReached, .deliver(request: 1, rows: [1, 2, 3])]
        let report = await schedule.run(against: HashtagTimelineControllerAdapter.self, modes: [.immediate])
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P1 duplicate bottom trigger (liveness at the schedule's end)"), "\(violation.summary)")
        #expect(violation.summary.contains("The pager shows hasMore false"))
        #expect(violation.hint?.hasPrefix("Take hasMore from the answer") == true)
    }

    @Test func theFixedP1SaysTheEndWasMisreadAlsoWhereItBlocks() async throws {
        let pager = try #require(BundledImplementations.pagers.first { $0.name == "HashtagTimelineController" })
        let p1 = await pager.run("P1")
        let failed = try #require(p1.outcome.violations.first)
        #expect(failed.summary.contains("though the answer to request #1 (page 1 of query A), with 3 rows, said more pages exist"))
        #expect(failed.hint?.hasPrefix("Take hasMore from the answer") == true)
        let p12 = await pager.run("P12")
        #expect(p12.outcome.blockedBy == "P1", "\(p12.fullText)")
        #expect(p12.outcome.blockingViolation?.hint?.hasPrefix("Take hasMore from the answer") == true)
    }

    /// `CachedCatalogModel` resumes a category's earlier visit: A, B, A asks for A's page 2.
    /// The fixed P4 said "a flag left set by the old query's request"; the explorer said P1.
    @Test func aResumedEarlierVisitIsP4() async throws {
        let schedule: PagerSchedule = [
            .bottomReached, .deliver(request: 1, rows: [1, 2]), .changeQuery, .changeQuery, .bottomReached,
        ]
        let report = await schedule.run(against: CachedCatalogModelAdapter.self, modes: [.immediate])
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P4 late stale response (invariant I3"), "\(violation.summary)")
        #expect(violation.summary.contains("where an earlier visit of query A stopped"))
        let pager = try #require(BundledImplementations.pagers.first { $0.name == "CachedCatalogModel" })
        let p4 = try #require(await pager.run("P4").outcome.violations.first)
        #expect(p4.summary.contains("The pager went on where an earlier visit of query D stopped"), "\(p4.summary)")
        #expect(p4.hint?.hasPrefix("A query change starts a new list at its first page") == true)
    }
}
