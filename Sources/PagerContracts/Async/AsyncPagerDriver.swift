import ConformanceKit

/// Drives an ``AsyncPagerAdapter``: each trigger runs in a task of its own, every load parks in
/// the kit's page source, and each step ends when the scheduler has evidence that nothing can
/// move without the timeline.
final class AsyncPagerDriver<Adapter: AsyncPagerAdapter>: PagerDriving {
    private let scheduler = TimelineScheduler<PageLoad, PageResponse>()
    private let mode: DeliveryMode
    private var adapter: Adapter?
    private var reported = 0
    private var reportedProblems = 0
    private var notes: [String] = []
    private var rowsByItemID: [Adapter.ItemID: Int] = [:]

    init(mode: DeliveryMode) {
        self.mode = mode
    }

    var capabilities: PagerCapabilities { Adapter.capabilities }
    var canDeliverTwice: Bool { Adapter.capabilities.loader == .completionHandler }

    /// Creates the subject, wired to the kit's source, and lets the watchdog describe it.
    func prepare(recorder: TimelineRecorder) async {
        let scheduler = self.scheduler
        recorder.setWaitingDetail { scheduler.stateDescription }
        adapter = await Adapter(source: PageSource(scheduler: scheduler))
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
            }
        }
        await scheduler.settle()
        try checkAdapter()
        let started = newRequests()
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
        let delivered: Bool
        switch mode {
        case .immediate:
            delivered = scheduler.answer(index + 1, with: result)
        case .fromAnotherTask:
            let scheduler = self.scheduler
            delivered = await Task.detached { scheduler.answer(index + 1, with: result) }.value
        }
        if !delivered { notes.append("not delivered: an async load resumes only once") }
        await scheduler.settle()
        try checkAdapter()
        return newRequests()
    }

    func state() async -> PagerState {
        guard let snapshot = await adapter?.snapshot() else { return PagerState(visible: []) }
        return PagerState(
            visible: snapshot.visibleIDs.map { id in
                rowsByItemID[id].map(VisibleItem.row) ?? .unrecognized(String(describing: id))
            },
            isLoading: snapshot.isLoading,
            hasMore: snapshot.hasMore,
            showsError: snapshot.showsError,
            hasProtocolError: snapshot.hasProtocolError)
    }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes + scheduler.takeObservations()
    }

    func finish() async {
        await scheduler.finish()
    }

    private func newRequests() -> [PagePosition] {
        let all = scheduler.requests
        defer { reported = all.count }
        return all.dropFirst(reported).map(\.request.position)
    }

    private func checkAdapter() throws {
        let problems = scheduler.adapterProblems
        guard problems.count > reportedProblems, let problem = problems.last else { return }
        reportedProblems = problems.count
        throw AdapterMisuse(
            summary: "Expected every request to come from a trigger still running, but \(problem)",
            hint: "Make the adapter's trigger await the subject's async method; if the subject "
                + "only offers a fire-and-forget method, expose the Task it starts and await it.")
    }
}
