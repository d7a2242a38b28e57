/// One instance of a model-level adapter, with the tickets of the requests it started, as
/// three closures over it: the generic part of ``ModelPagerDriver``.
///
/// Requests are numbered by the order the adapter started them, from 0: `answer` takes that
/// number.
@usableFromInline
struct ModelPagerSession {
    /// Fires a trigger; returns the position of the request it started, if any. Rethrows the
    /// adapter's error (a trigger it rejects).
    @usableFromInline let perform: (PagerTrigger) throws -> PagePosition?
    /// Hands request `index` its answer; returns the position of the request that started, if any.
    @usableFromInline let answer: (Int, PageAnswer) -> PagePosition?
    /// What the adapter shows, each visible ID mapped back to the kit's row delivered under it.
    @usableFromInline let state: () -> PagerState

    /// A session over a fresh instance of `adapter`.
    @inlinable
    init<Adapter: PagerModelAdapter>(_ adapter: Adapter.Type) {
        let instance = ModelAdapterInstance<Adapter>()
        perform = instance.perform
        answer = instance.answer
        state = instance.state
    }
}

/// A model-level adapter instance, the tickets of its requests and the rows it was given by
/// item ID. Its methods are inlinable so that ``ModelPagerSession`` compiles them for the
/// adapter's own type. Its state is `@exclusivity(unchecked)`, as `ScheduleExecution`'s: one
/// schedule's task uses it, one call at a time.
@usableFromInline
final class ModelAdapterInstance<Adapter: PagerModelAdapter> {
    /// The adapter instance, created with `init()`.
    @exclusivity(unchecked) @usableFromInline var adapter = Adapter()
    /// The tickets of the requests it started, by request number (from 0).
    @exclusivity(unchecked) @usableFromInline var tickets: [Adapter.Ticket] = []
    /// The kit's row ID of every row delivered, by the item ID the adapter gives it.
    @exclusivity(unchecked) @usableFromInline var rowsByItemID: [Adapter.ItemID: Int] = [:]

    /// A fresh adapter instance, with no request started.
    @inlinable init() {}

    /// Fires `trigger`; returns the position of the request it started, if any.
    @inlinable
    func perform(_ trigger: PagerTrigger) throws -> PagePosition? {
        let request: PageRequest<Adapter.Ticket>? =
            switch trigger {
            case .bottomReached: try adapter.bottomReached()
            case .changeQuery(let query): try adapter.changeQuery(to: query)
            case .refresh: try adapter.refresh()
            case .retry: try adapter.retry()
            case .fillScreen: try adapter.fillScreen()
            case .appear: try adapter.appear()
            }
        return register(request)
    }

    /// Hands request `index` its answer (a page's rows are remembered by item ID first); returns
    /// the position of the request that started, if any.
    @inlinable
    func answer(_ index: Int, _ answer: PageAnswer) -> PagePosition? {
        let ticket = tickets[index]
        switch answer {
        case .page(let response):
            for row in response.rows { rowsByItemID[Adapter.itemID(for: row)] = row.id }
            return register(adapter.deliver(response, for: ticket))
        case .failure(let failure):
            return register(adapter.fail(failure, for: ticket))
        }
    }

    /// The adapter's snapshot, in the kit's terms.
    @inlinable
    func state() -> PagerState {
        PagerState(adapter.snapshot(), rows: rowsByItemID)
    }

    /// Keeps the ticket of a request the adapter started, and returns its position.
    @inlinable
    func register(_ request: PageRequest<Adapter.Ticket>?) -> PagePosition? {
        guard let request else { return nil }
        tickets.append(request.ticket)
        return request.position
    }
}
