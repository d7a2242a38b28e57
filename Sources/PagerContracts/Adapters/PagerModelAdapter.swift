import ConformanceKit

/// Adapts a synchronous pager state machine (like the source document's `Pager` with
/// `start`, `finish` and `reset`) so the kit can drive it through every P contract.
///
/// The kit creates a fresh adapter for every contract, fires triggers, and answers each
/// request the pager starts by handing its ticket back with a page or a failure, in the
/// order the contract's timeline says. The pager starts on the kit's first query ("A").
///
/// ```swift
/// struct MyPagerAdapter: PagerModelAdapter {
///     var pager = Pager<Int>()
///
///     mutating func bottomReached() -> PageRequest<PageTicket>? {
///         pager.start().map { PageRequest($0, page: $0.page) }
///     }
///     mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? {
///         pager.reset()
///         return nil                        // or the first-page request, if reset loads
///     }
///     mutating func deliver(_ response: PageResponse, for ticket: PageTicket) -> PageRequest<PageTicket>? {
///         pager.finish(ticket, rows: response.rows.map(\.id), hasMore: response.hasMore)
///         return nil
///     }
///     mutating func fail(_ failure: PageFailure, for ticket: PageTicket) -> PageRequest<PageTicket>? {
///         pager.fail(ticket)
///         return nil
///     }
///     func snapshot() -> PagerSnapshot<Int> {
///         PagerSnapshot(visibleIDs: pager.ids, isLoading: pager.inFlight != nil, hasMore: pager.hasMore)
///     }
/// }
/// ```
///
/// ## Conforming to PagerModelAdapter
///
/// Map each call onto your pager and return the request it started, if any. Triggers may
/// throw to reject an event (a rejected duplicate trigger conforms); ``deliver(_:for:)``,
/// ``fail(_:for:)`` and ``snapshot()`` must not throw. The kit then checks these laws:
///
/// - P1: a bottom trigger while a page loads starts no request; the next one after the
///   response starts exactly one, for the next page.
/// - P2: an ID already visible is not shown again; the rest keep the server's order.
/// - P3: a response delivered twice is accepted once.
/// - P4, P5, P8, P11: responses and failures of requests from before a query change or
///   refresh change nothing, even cancellation errors and late data.
/// - P6: a failure keeps the items, shows an error, does not advance; a retry asks for the
///   same page.
/// - P7: after the last page, only a query change or refresh starts a request.
/// - P9, P10 (cursors): the next request carries the last accepted response's cursor; a cursor
///   that does not advance stops automatic loading.
/// - P12, P13 (recommended): loading stops after pages that add nothing; a fill-the-screen
///   trigger commits each page before requesting the next.
public protocol PagerModelAdapter: ConformanceAdapter {
    /// Whatever your pager uses to recognise its own request.
    associatedtype Ticket
    /// Your items' ID type. `Int` by default; any `Hashable` works.
    associatedtype ItemID: Hashable = Int

    /// What the pager supports: page numbers or cursors, refresh, fill-the-screen.
    static var capabilities: PagerCapabilities { get }

    /// Creates a pager showing the kit's first query, with nothing loaded.
    init()

    /// The user scrolled to the bottom (or the first load on appear).
    /// - Returns: The request the pager started, or `nil` if it started none.
    /// - Throws: To reject the trigger (conforming for a duplicate trigger).
    mutating func bottomReached() throws -> PageRequest<Ticket>?

    /// The filter or search text changed to `query`: a new query.
    /// - Returns: The first-page request if the pager loads by itself, or `nil` if it waits
    ///   for the next trigger (both conform).
    mutating func changeQuery(to query: String) throws -> PageRequest<Ticket>?

    /// Pull-to-refresh: reload from the first page. Declare `.refresh` when implemented.
    mutating func refresh() throws -> PageRequest<Ticket>?

    /// The user tapped retry after an error. By default the same as ``bottomReached()``.
    mutating func retry() throws -> PageRequest<Ticket>?

    /// A trigger that loads pages until the screen is full. Declare `.fillScreen` when
    /// implemented; return the first request, and each next one from ``deliver(_:for:)``.
    mutating func fillScreen() throws -> PageRequest<Ticket>?

    /// The list appeared (`onAppear`, `viewDidLoad`). Declare `.appear` when your first load
    /// comes from it: the kit then calls it for each first load instead of ``bottomReached()``.
    /// By default the same as ``bottomReached()``.
    mutating func appear() throws -> PageRequest<Ticket>?

    /// The response to the request identified by `ticket` arrived (perhaps late, perhaps
    /// twice).
    /// - Returns: A request this response made the pager start (a pager that fills the
    ///   screen); usually `nil`.
    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>?

    /// The request identified by `ticket` failed (perhaps late, perhaps cancelled).
    /// - Returns: A request the failure made the pager start; usually `nil`.
    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>?

    /// What the user sees now.
    func snapshot() -> PagerSnapshot<ItemID>

    /// The ID your pager gives the item built from `row`. Defaults to `row.id` for `Int` IDs;
    /// use `row.stringID`, `row.uuid` or your own mapping otherwise.
    static func itemID(for row: PageRow) -> ItemID
}

extension PagerModelAdapter {
    /// Page numbers, no extra triggers.
    public static var capabilities: PagerCapabilities { PagerCapabilities() }

    /// Throws ``PagerAdapterError/unsupportedTrigger(_:)``.
    public mutating func refresh() throws -> PageRequest<Ticket>? {
        throw PagerAdapterError.unsupportedTrigger("refresh")
    }

    /// The same as ``bottomReached()``.
    public mutating func retry() throws -> PageRequest<Ticket>? {
        try bottomReached()
    }

    /// Throws ``PagerAdapterError/unsupportedTrigger(_:)``.
    public mutating func fillScreen() throws -> PageRequest<Ticket>? {
        throw PagerAdapterError.unsupportedTrigger("fillScreen")
    }

    /// The same as ``bottomReached()``.
    public mutating func appear() throws -> PageRequest<Ticket>? {
        try bottomReached()
    }
}

extension PagerModelAdapter where ItemID == Int {
    /// The row's own ID.
    public static func itemID(for row: PageRow) -> Int { row.id }
}
