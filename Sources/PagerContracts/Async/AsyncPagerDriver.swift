import ConformanceKit

/// Drives an ``AsyncPagerAdapter``: each trigger runs in a task of its own, every load parks in
/// the kit's page source, and each step ends when the scheduler has evidence that nothing can
/// move without the timeline.
final class AsyncPagerDriver<Adapter: AsyncPagerAdapter>: PagerDriving {
    private let scheduler: TimelineScheduler<PageLoad, PageResponse>
    private let mode: DeliveryMode
    private let plan: AnswerPlan
    private let snapshotsObserve: Bool
    private var adapter: Adapter?
    private var registered = 0
    private var timelineOrder: [Int] = []
    private var deferred: [Int: [Int]] = [:]
    private var lastReported: Set<Int> = []
    private var observedSinceReport = false
    private var answeredOnce: Set<Int> = []
    private var reportedProblems = 0
    private var notes: [String] = []
    private var rowsByItemID: [Adapter.ItemID: Int] = [:]

    /// - Parameters:
    ///   - mode: How answers are handed to the subject.
    ///   - plan: Recorded by an `immediate` run, replayed by an `alreadyAvailable` one.
    ///   - snapshotsObserve: Whether a snapshot between a request and its answer means the
    ///     answer was not already available (a contract's expectation looked at the loading
    ///     state). The explorer snapshots after every step only to check its invariants, and
    ///     in `alreadyAvailable` mode checks a trigger together with its planned answer, so
    ///     its snapshots do not count.
    ///   - exploring: Whether a search drives it: every wait on an event loop's load then costs
    ///     the same priorities, whatever the runtime showed, so a replay takes the same course.
    init(mode: DeliveryMode, plan: AnswerPlan, snapshotsObserve: Bool = true, exploring: Bool = false) {
        scheduler = TimelineScheduler(levelsUntaggedWaits: exploring)
        self.mode = mode
        self.plan = plan
        self.snapshotsObserve = snapshotsObserve
    }

    var capabilities: PagerCapabilities { Adapter.capabilities }
    var canDeliverTwice: Bool { Adapter.capabilities.loader != .asyncAwait }

    /// Creates the subject, wired to the kit's source, and lets the watchdog describe it.
    func prepare(recorder: TimelineRecorder) async {
        let scheduler = self.scheduler
        recorder.setWaitingDetail { scheduler.stateDescription }
        let subject = await Self.makeSubject(source: PageSource(scheduler: scheduler))
        adapter = subject
        // Answers are available from the first trigger on. A load the subject starts at init
        // parks, as in every other mode, and the timeline's first answer is its: available at
        // init, it took the answer the plan meant for the first trigger's request, and the
        // screen filled one page ahead of every step (a search controller that loads its
        // first page in `init` failed P1 under this mode alone).
        if mode == .alreadyAvailable {
            let plan = self.plan
            scheduler.preAnswer(
                callbacksSynchronously:
                    Adapter.capabilities.loader == .completionHandlerMayCallBackSynchronously
            ) { number, load in plan.answer(for: number, load: load) }
        }
        scheduler.setCompletionBarrier { await subject.waitForPendingWork() }
    }

    /// Creates the adapter on the lowest task priority and waits for it without raising that
    /// priority (a continuation, not `Task.value`), so work the subject starts at init (an event
    /// loop reading an `AsyncStream`) and the loads that work spawns run below every trigger: a
    /// trigger's `await load.value` then escalates the load, which names the trigger. Created at
    /// the test's priority instead, the eighth trial's event-loop view model parked its loads
    /// above the first triggers, and every trigger after the second ran out of priorities.
    ///
    /// The subject crosses over in a ``Locked`` box, not as the continuation's value: the
    /// runtime's continuation does not show ThreadSanitizer that the init happened before the
    /// first trigger, and it reported every field the init wrote as raced (5 to 13 reports in 3
    /// of 6 runs of `Scripts/check-thread-sanitizer.sh`).
    private static func makeSubject(source: PageSource) async -> Adapter {
        let made = Locked<Adapter?>(rawValue: nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Task.detached(priority: TaskPriority(rawValue: PriorityLadder.rungs[0])) {
                let adapter = await Adapter(source: source)
                made.withLock { $0 = adapter }
                continuation.resume()
            }
        }
        guard let adapter = made.rawValue else { preconditionFailure("the subject's init returned") }
        return adapter
    }

    var triggerUnobservable: String? { scheduler.nextTriggerUnobservable }
    var assumptionCount: Int { scheduler.assumptionCount }
    private var lastTrigger: Int?

    func isFollowUp(_ later: Int, of earlier: Int) -> Bool {
        guard later < timelineOrder.count, earlier < timelineOrder.count else { return false }
        return scheduler.isChained(timelineOrder[later], after: timelineOrder[earlier])
    }

    var lastTriggerWaits: Bool {
        lastTrigger.map { !scheduler.outcome(ofTrigger: $0).returned } ?? false
    }

    func requestsMadeAtInit() async -> [PagePosition] {
        await scheduler.settle()
        return report(newlyRegistered())
    }

    func perform(_ trigger: PagerTrigger) async throws -> TriggerOutcome {
        guard let adapter else { return .rejected("the subject was not created") }
        let number = scheduler.startTrigger(trigger.description) {
            switch trigger {
            case .bottomReached: try await adapter.bottomReached()
            case .changeQuery(let query): try await adapter.changeQuery(to: query)
            case .refresh: try await adapter.refresh()
            case .retry: try await adapter.retry()
            case .fillScreen: try await adapter.fillScreen()
            case .appear: try await adapter.appear()
            }
        }
        lastTrigger = number
        await scheduler.settle()
        try checkAdapter()
        let started = report(newlyRegistered())
        let outcome = scheduler.outcome(ofTrigger: number)
        if let evidence = scheduler.evidence(ofTrigger: number) {
            notes.append("the trigger waits: \(evidence)")
        }
        if started.isEmpty, outcome.returned, let error = outcome.error {
            return .rejected(error)
        }
        return .started(started)
    }

    func answer(request index: Int, with answer: PageAnswer) async throws -> [PagePosition] {
        let number = timelineOrder[index]
        let result: Result<PageResponse, any Error>
        switch answer {
        case .page(let response):
            for row in response.rows { rowsByItemID[Adapter.itemID(for: row)] = row.id }
            result = .success(response)
        case .failure(.cancelled):
            result = .failure(CancellationError())
        case .failure(let failure):
            result = .failure(failure)
        }
        let request = scheduler.requests[number - 1]
        if mode == .immediate, lastReported.contains(number), !observedSinceReport,
            request.answers == 0
        {
            plan.record(number, load: request.request, result: result)
        }
        var released: [Int] = []
        if scheduler.wasPreAnswered(number) && !answeredOnce.contains(number) {
            answeredOnce.insert(number)
            released = deferred.removeValue(forKey: number) ?? []
            notes.append("the answer was already available when the load started")
        } else {
            let delivered: Bool
            switch mode {
            case .immediate, .alreadyAvailable:
                delivered = scheduler.answer(number, with: result)
            case .fromAnotherTask:
                let scheduler = self.scheduler
                delivered = await Task.detached { scheduler.answer(number, with: result) }.value
            }
            if !delivered { notes.append("not delivered: an async load resumes only once") }
        }
        await scheduler.settle()
        try checkAdapter()
        return report(released + newlyRegistered())
    }

    /// The requests the timeline was shown that were answered at registration while the
    /// timeline's own answer step for them is still to come: until then the subject shows a
    /// page the timeline has not delivered yet.
    var plannedAnswers: [Int] {
        timelineOrder.indices.filter { index in
            scheduler.wasPreAnswered(timelineOrder[index]) && !answeredOnce.contains(timelineOrder[index])
        }.map { $0 + 1 }
    }

    func holdsOtherAnswer(toRequest index: Int, than answer: PageAnswer) -> Bool {
        guard index < timelineOrder.count else { return false }
        let number = timelineOrder[index]
        guard scheduler.wasPreAnswered(number), !answeredOnce.contains(number),
            let held = plan.answer(for: number, load: scheduler.requests[number - 1].request)
        else { return false }
        switch (answer, held) {
        case (.page(let response), .success(let heldResponse)): return response != heldResponse
        case (.failure(.cancelled), .failure(let error)): return !(error is CancellationError)
        case (.failure(let failure), .failure(let error)): return (error as? PageFailure) != failure
        default: return true
        }
    }

    func stepSkipped() {
        lastReported = []
    }

    func state() async -> PagerState {
        if snapshotsObserve { observedSinceReport = true }
        guard let snapshot = await adapter?.snapshot() else { return PagerState(visible: []) }
        return PagerState(snapshot, rows: rowsByItemID)
    }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes + scheduler.takeObservations()
    }

    func finish() async {
        await scheduler.finish()
    }

    /// Requests registered since the last call, by number, in registration order.
    private func newlyRegistered() -> [Int] {
        let count = scheduler.requests.count
        defer { registered = count }
        return Array((registered + 1)..<(count + 1))
    }

    /// Reports `numbers` to the timeline, holding back the requests that followed a
    /// pre-answered one until the timeline's own answer step for it.
    private func report(_ numbers: [Int]) -> [PagePosition] {
        var shown: [Int] = []
        for (offset, number) in numbers.enumerated() {
            shown.append(number)
            if scheduler.wasPreAnswered(number), offset + 1 < numbers.count {
                deferred[number] = Array(numbers[(offset + 1)...])
                break
            }
        }
        timelineOrder += shown
        lastReported = Set(shown)
        observedSinceReport = false
        let requests = scheduler.requests
        return shown.map { requests[$0 - 1].request.position }
    }

    private func checkAdapter() throws {
        let problems = scheduler.adapterProblems
        guard problems.count > reportedProblems, let problem = problems.last else { return }
        reportedProblems = problems.count
        // Named as the timeline numbers it, or, not yet shown there, by what it asks for.
        let name = timelineOrder.firstIndex(of: problem.request).map { "request #\($0 + 1)" }
            ?? "a request for \(scheduler.requests[problem.request - 1].request.position) (not in the timeline yet)"
        throw AdapterMisuse(
            summary: "Expected every request to come from a trigger still running, but "
                + problem.description(naming: name),
            hint: "Make the adapter's trigger await the subject's async method; if the subject "
                + "only offers a fire-and-forget method, expose the Task it starts and await it.")
    }
}
