@testable import BundledImplementations
@testable import PagerContracts
import Testing

/// A trigger that could be settled only by assumption (the five task priorities spent) is left
/// out by replaying its schedule without it, and the schedule goes on: triggers that are seen
/// at any priority (one that returns at once) are still judged, not skipped in advance.
@Suite("Triggers beyond the priority ladder")
struct UnobservedTriggerRestartTests {
    /// Two spawned loads, each found by a probe, leave one rung: a third query change spawns
    /// its load on it and could only be assumed blocked; the bottom trigger after it returns
    /// at once (a load is in flight) and is judged, and the answer after it applies.
    private let steps: [PagerSchedule.Step] = [
        .bottomReached, .changeQuery, .changeQuery, .bottomReached, .deliver(request: 2, rows: [1, 2]),
    ]

    @Test("a trigger that needs a spent priority is left out, and the schedule goes on")
    func theScheduleGoesOnWithoutTheUnobservedTrigger() async {
        let replay = await PagerSchedule.replay(
            steps, against: .async(SpawningFeedViewModelAdapter.self), mode: .alreadyAvailable)
        #expect(replay.failure == nil, "\(String(describing: replay.failure?.violation))")
        #expect(replay.notApplicable == nil, "\(replay.notApplicable ?? "")")
        #expect(replay.applied == [true, true, false, true, true])
        #expect(replay.unobservableTriggers.byKind == [".changeQuery": 1], "named by the step left out")
    }

    @Test("the same schedule takes the same course on every replay", arguments: DeliveryMode.allCases)
    func everyReplayTakesTheSameCourse(_ mode: DeliveryMode) async {
        var courses: Set<[Bool]> = []
        for _ in 0..<50 {
            let replay = await PagerSchedule.replay(steps, against: .async(SpawningFeedViewModelAdapter.self), mode: mode)
            courses.insert(replay.applied)
        }
        #expect(courses == [[true, true, false, true, true]])
    }
}
