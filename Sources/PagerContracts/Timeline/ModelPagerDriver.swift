/// Drives a ``PagerModelAdapter``: a synchronous state machine, fully deterministic.
final class ModelPagerDriver<Adapter: PagerModelAdapter>: PagerDriving {
    private var adapter = Adapter()
    private var tickets: [Adapter.Ticket] = []
    private var rowsByItemID: [Adapter.ItemID: Int] = [:]

    var capabilities: PagerCapabilities { Adapter.capabilities }
    var canDeliverTwice: Bool { true }
    var plannedAnswers: [Int] { [] }
    func holdsOtherAnswer(toRequest index: Int, than answer: PageAnswer) -> Bool { false }
    func stepSkipped() {}
    var triggerUnobservable: String? { nil }
    var assumptionCount: Int { 0 }

    func takeNotes() -> [String] { [] }
    func isFollowUp(_ later: Int, of earlier: Int) -> Bool { true }
    var lastTriggerWaits: Bool { false }
    func finish() async {}

    func perform(_ trigger: PagerTrigger) async -> TriggerOutcome {
        do {
            let request: PageRequest<Adapter.Ticket>? =
                switch trigger {
                case .bottomReached: try adapter.bottomReached()
                case .changeQuery(let query): try adapter.changeQuery(to: query)
                case .refresh: try adapter.refresh()
                case .retry: try adapter.retry()
                case .fillScreen: try adapter.fillScreen()
                case .appear: try adapter.appear()
                }
            return .started(register(request))
        } catch {
            return .rejected(String(describing: error))
        }
    }

    func answer(request index: Int, with answer: PageAnswer) async -> [PagePosition] {
        let ticket = tickets[index]
        switch answer {
        case .page(let response):
            for row in response.rows { rowsByItemID[Adapter.itemID(for: row)] = row.id }
            return register(adapter.deliver(response, for: ticket))
        case .failure(let failure):
            return register(adapter.fail(failure, for: ticket))
        }
    }

    func state() async -> PagerState {
        PagerState(adapter.snapshot(), rows: rowsByItemID)
    }

    private func register(_ request: PageRequest<Adapter.Ticket>?) -> [PagePosition] {
        guard let request else { return [] }
        tickets.append(request.ticket)
        return [request.position]
    }
}
