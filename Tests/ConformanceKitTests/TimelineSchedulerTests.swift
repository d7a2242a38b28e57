import ConformanceKit
import Foundation
import Testing

/// The settling engine, tested directly: every kind of evidence, and the adapter mistake it
/// names. No test here sleeps; each waits for the scheduler's own events.
@Suite struct TimelineSchedulerTests {
    typealias Scheduler = TimelineScheduler<String, Int>

    @Test func aTriggerWhoseOwnTaskParksIsSettledByThatEvidence() async throws {
        let scheduler = Scheduler()
        let trigger = scheduler.startTrigger("load") { _ = try await scheduler.park("page 1") }
        await scheduler.settle()
        #expect(scheduler.evidence(ofTrigger: trigger) == .parked(request: 1))
        #expect(scheduler.requests.map(\.request) == ["page 1"])
        scheduler.answer(1, with: .success(10))
        await scheduler.settle()
        #expect(scheduler.outcome(ofTrigger: trigger).returned)
        await scheduler.finish()
    }

    @Test func aTriggerAwaitingALoadItSpawnedIsFoundByAProbe() async throws {
        let scheduler = Scheduler()
        let trigger = scheduler.startTrigger("spawn then await") {
            let load = Task { try await scheduler.park("page 1") }
            _ = try await load.value
        }
        await scheduler.settle()
        let evidence = try #require(scheduler.evidence(ofTrigger: trigger))
        #expect([.probed(request: 1), .joined(request: 1)].contains(evidence))
        await scheduler.finish()
    }

    @Test func aSecondTriggerThatJoinsTheRunningLoadIsSeenJoining() async throws {
        let scheduler = Scheduler()
        let shared = SharedLoad()
        scheduler.startTrigger("first") {
            let load = Task { try await scheduler.park("page 1") }
            await shared.set(load)
            _ = try await load.value
        }
        await scheduler.settle()
        let second = scheduler.startTrigger("second") { _ = try await shared.load?.value }
        await scheduler.settle()
        #expect(scheduler.evidence(ofTrigger: second) == .joined(request: 1))
        #expect(scheduler.requests.count == 1)
        await scheduler.finish()
    }

    /// An event loop's shape: work no trigger started (created on the lowest priority, as the
    /// drivers create adapters) makes the loads, and the trigger awaits the load the loop
    /// handed it, here before the load reaches the source (the load waits for that await's
    /// escalation before it goes on). The load parks already raised, so no escalation handler
    /// of the kit's saw the await: the load's raised priority, which only this trigger holds,
    /// is the evidence, and no probe rung is spent. Before, the trigger was probed (a rung), or
    /// started on the loop's own rung and was never seen at all.
    ///
    /// Exploring, the same wait then spends the rung a probe would have (a probe runs anyway),
    /// since whether the runtime shows such an escalation varies from run to run, and the
    /// priorities spent decide where later triggers start: a search must take the same course
    /// on every replay.
    @Test(arguments: [false, true])
    func aLoadRaisedBeforeItParksNamesTheOneTriggerOnItsPriority(exploring: Bool) async throws {
        #if compiler(>=6.2)
            guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) else { return }
            let scheduler = Scheduler(levelsUntaggedWaits: exploring)
            let shared = SharedLoad()
            let gate = Gate()
            // Waited for through a continuation: `loop.value` would raise the loop's priority.
            await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
                Task.detached(priority: TaskPriority(rawValue: 9)) {
                    await scheduler.makeTheLoopsFirstLoad()
                    let load = Task {
                        await withTaskPriorityEscalationHandler {
                            await gate.wait()
                        } onPriorityEscalated: { _, _ in
                            gate.open()
                        }
                        return try await scheduler.park("page 1")
                    }
                    await shared.set(load)
                    started.resume()
                }
            }
            let trigger = scheduler.startTrigger("event") { _ = try await shared.load?.value }
            // On the loop's rung its await would raise nothing, and this test would wait forever.
            try #require(scheduler.priority(ofTrigger: trigger) ?? 0 > 9)
            await scheduler.settle()
            if exploring {
                #expect(scheduler.evidence(ofTrigger: trigger) == .probed(request: 2))
                #expect(scheduler.priority(ofTrigger: trigger) == 21)
            } else {
                #expect(scheduler.evidence(ofTrigger: trigger) == .raisedBeforeParking(request: 2))
                #expect(scheduler.priority(ofTrigger: trigger) == 17)
            }
            #expect(scheduler.assumptionCount == 0)
            await scheduler.finish()
        #endif
    }

    /// An event loop's trigger on the top rung: three triggers park loads of their own at 17,
    /// 21 and 25, so the fourth starts at 33 with no rung left for a probe. It hands its event
    /// to the loop and waits for the loop's reply (a continuation: nothing the runtime escalates,
    /// as when it drops the escalation of a load that has not run yet). The loop's one load
    /// made since the trigger started, claimed by no other trigger, is the one it is assumed
    /// blocked on, and the transcript says so. Before, it was shown nothing, and the watchdog
    /// ended the timeline (the eighth and eleventh trials' event-loop models, 1 run in 8).
    @Test func aTriggerOnTheTopRungIsAssumedBlockedOnTheOneLoadItsEventMade() async throws {
        let scheduler = Scheduler()
        let (events, send) = AsyncStream.makeStream(of: CheckedContinuation<Void, Never>.self)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            Task.detached(priority: TaskPriority(rawValue: 9)) {
                await scheduler.makeTheLoopsFirstLoad()
                started.resume()
                for await reply in events {
                    _ = try? await scheduler.park("the event's load")
                    reply.resume()
                }
            }
        }
        for page in 2...4 {
            scheduler.startTrigger("page \(page)") { _ = try await scheduler.park("page \(page)") }
            await scheduler.settle()
        }
        let event = scheduler.startTrigger("event") {
            await withCheckedContinuation { reply in send.yield(reply) }
        }
        #expect(scheduler.priority(ofTrigger: event) == 33)
        // Without the assumption, nothing would ever settle it.
        try await withWatchdog(limit: .seconds(30), waitingFor: { "the event's trigger to settle" }) {
            await scheduler.settle()
        }
        #expect(scheduler.evidence(ofTrigger: event) == .assumed(request: 5))
        #expect(scheduler.assumptionCount == 1)
        #expect(scheduler.takeObservations().contains { $0.contains("assumed blocked on request #5") })
        await scheduler.finish()
        send.finish()
    }

    /// The first trigger spawns its load (its probe raises it to 17); two more park loads of
    /// their own, at 21 and 25. One rung is left, and a fourth trigger still starts on it: one
    /// that parks in its own task is seen there, and one that spawns its load is settled by
    /// assumption (no probe could find that load), whatever the runtime happened to show, so a
    /// search replaying the same steps takes the same course.
    @Test(arguments: [false, true])
    func aTriggerOnTheTopRungIsSeenUnlessItSpawnsItsLoad(spawnsOnTop: Bool) async throws {
        let scheduler = Scheduler()
        let first = scheduler.startTrigger("page 1") {
            _ = try await Task { try await scheduler.park("page 1") }.value
        }
        await scheduler.settle()
        // Probed, or joined where the probe's raise reached the load through the trigger's own
        // await (seen once, in a full run on a loaded machine); the rest of the test shows the
        // load on the second rung either way.
        #expect([.probed(request: 1), .joined(request: 1)].contains(scheduler.evidence(ofTrigger: first)))
        for page in 2...3 {
            scheduler.startTrigger("page \(page)") { _ = try await scheduler.park("page \(page)") }
            await scheduler.settle()
        }
        #expect(scheduler.nextTriggerUnobservable == nil)
        let top = scheduler.startTrigger("page 4") {
            if spawnsOnTop {
                _ = try await Task { try await scheduler.park("page 4") }.value
            } else {
                _ = try await scheduler.park("page 4")
            }
        }
        await scheduler.settle()
        if spawnsOnTop {
            // Counted as an assumption even when the runtime showed the join (a load spawned
            // there sometimes starts below its trigger's priority): the count decides a search's
            // course, and it must not depend on that.
            #expect(scheduler.evidence(ofTrigger: top)?.request == 4)
            #expect(scheduler.assumptionCount == 1)
        } else {
            #expect(scheduler.evidence(ofTrigger: top) == .parked(request: 4))
            #expect(scheduler.assumptionCount == 0)
        }
        await scheduler.finish()
    }

    /// A trigger on the top rung is taken as blocked on the load it spawned only once its own
    /// task stopped moving: here it parks its load, then goes on through fifty main-actor hops
    /// (no event: nothing parks, joins or escalates) before it awaits the load. Taken as blocked
    /// when the load parked, the next step ran while the trigger was still on its way: the sixth
    /// trial's `ClockDebouncedSearchModel` then awaited the next query's load instead of its own
    /// and was named an adapter that did not await (P5, 2 runs in 40 under load).
    @Test func aTriggerOnTheTopRungIsTakenAsBlockedOnlyOnceItsOwnTaskStoppedMoving() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let scheduler = Scheduler()
        scheduler.startTrigger("page 1") { _ = try await Task { try await scheduler.park("page 1") }.value }
        await scheduler.settle()
        for page in 2...3 {
            scheduler.startTrigger("page \(page)") { _ = try await scheduler.park("page \(page)") }
            await scheduler.settle()
        }
        let hopsDone = Locked(rawValue: 0)
        let top = scheduler.startTrigger("page 4") {
            let load = Task { try await scheduler.park("page 4") }
            for _ in 0..<50 {
                await MainActor.run {}
                hopsDone.withLock { $0 += 1 }
            }
            _ = try await load.value
        }
        #expect(scheduler.priority(ofTrigger: top) == 33)
        await scheduler.settle()
        // Assumed, or joined where the runtime showed the await (a load spawned there sometimes
        // starts below its trigger's priority).
        #expect(scheduler.evidence(ofTrigger: top)?.request == 4)
        #expect(hopsDone.rawValue == 50, "settled while the trigger's own task was still moving")
        await scheduler.finish()
    }

    @Test func workLeftBehindByAReturnedTriggerIsAnAdapterProblem() async throws {
        let scheduler = Scheduler()
        let gate = Gate()
        let trigger = scheduler.startTrigger("fire and forget") {
            Task {
                await gate.wait()
                _ = try? await scheduler.park("late page")
            }
        }
        // The gate opens only once the trigger has returned, so the request is made after the
        // return (opened at once, the request sometimes parked before the trigger's task ended
        // and was named open at return: 1 CI run under load).
        await scheduler.waitUntilTriggerReturned(trigger)
        try #require(scheduler.outcome(ofTrigger: trigger).returned, "the trigger never returned")
        // The kit waits for work a returned trigger left running (it holds the trigger's
        // task-local tag): settling ends only once that work parks its request.
        gate.open()
        await scheduler.settle()
        #expect(scheduler.requests.count == 1)
        #expect(scheduler.adapterProblems.count == 1)
        #expect(scheduler.adapterProblems.first == UnawaitedRequest(request: 1, trigger: "fire and forget", moment: .madeAfterReturn))
        #expect(
            scheduler.adapterProblems.first?.description(naming: "request #1")
                .contains("request #1 came from work that \"fire and forget\" started and did not await") == true)
        await scheduler.finish()
    }

    @Test func theWatchdogDescriptionNamesParkedRequestsAndPendingTriggers() async {
        let scheduler = Scheduler()
        scheduler.startTrigger("load") { _ = try await scheduler.park("page 1") }
        await scheduler.settle()
        let description = scheduler.stateDescription
        #expect(description.contains("request #1 page 1 parked"))
        #expect(description.contains("trigger #1 \"load\""))
        #expect(description.contains("parked on request #1"))
        await scheduler.finish()
    }

    @Test func finishAnswersWhatIsOpenWithACancellationError() async {
        let scheduler = Scheduler()
        let cancelled = Locked<Bool?>(rawValue: nil)
        scheduler.startTrigger("load") {
            do {
                _ = try await scheduler.park("page 1")
            } catch {
                cancelled.withLock { $0 = error is CancellationError }
            }
        }
        await scheduler.settle()
        await scheduler.finish()
        #expect(cancelled.rawValue == true)
    }

    @Test func aCallbackRequestCanBeAnsweredTwice() async {
        let scheduler = Scheduler()
        let calls = Locked(rawValue: 0)
        scheduler.startTrigger("callback load") {
            scheduler.parkCallback("page 1") { _ in calls.withLock { $0 += 1 } }
        }
        await scheduler.settle()
        #expect(scheduler.answer(1, with: .success(1)))
        await scheduler.settle()
        #expect(scheduler.answer(1, with: .success(1)))
        await scheduler.settle()
        #expect(calls.rawValue == 2)
        await scheduler.finish()
    }
}

extension TimelineScheduler where Request == String, Answer == Int {
    /// An event loop's first load, at init, made and answered: untagged work has made a
    /// request, so triggers start above the loop's rung.
    fileprivate func makeTheLoopsFirstLoad() async {
        async let warmUp = park("warm-up")
        await waitUntilRequestCount(1)
        #expect(answer(1, with: .success(0)))
        _ = try? await warmUp
    }
}

extension TimelineScheduler {
    /// Waits, by settling, until `count` requests have registered and parked.
    fileprivate func waitUntilRequestCount(_ count: Int) async {
        while requests.filter(\.parked).count < count {
            await Task.yield()
            await settle()
        }
    }

    /// Yields until trigger `number` has returned, at most a watchdog's count of times.
    fileprivate func waitUntilTriggerReturned(_ number: Int) async {
        var yields = 0
        while !outcome(ofTrigger: number).returned, yields < 100_000 {
            await Task.yield()
            yields += 1
        }
    }
}

private actor SharedLoad {
    var load: Task<Int, any Error>?

    func set(_ load: Task<Int, any Error>) {
        self.load = load
    }
}

/// A one-shot gate: `wait()` suspends until `open()`.
private final class Gate: Sendable {
    private let state = Locked(rawValue: (opened: false, waiters: [CheckedContinuation<Void, Never>]()))

    func wait() async {
        await withCheckedContinuation { continuation in
            let opened = state.withLock { state in
                if !state.opened { state.waiters.append(continuation) }
                return state.opened
            }
            if opened { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.opened = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiting { waiter.resume() }
    }
}
