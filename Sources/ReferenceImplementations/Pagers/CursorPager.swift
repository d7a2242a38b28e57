/// A pager for cursor APIs: the request carries the cursor of the last accepted response, and
/// a cursor that does not advance is a protocol error that stops automatic loading.
///
/// The same ticket discipline as ``Pager``, with the cursor in the ticket: a stale or
/// duplicate response can never move the cursor, and a new query starts with no cursor.
package struct CursorPager<ID: Hashable & Sendable>: Sendable {
    /// Why automatic loading stopped.
    package enum ProtocolError: Hashable, Sendable {
        /// The server returned the cursor that was requested while saying there are more.
        case cursorDidNotAdvance(String?)
        /// The server returned a cursor already requested in this query (a cycle).
        case cursorRepeated(String)
        /// The server said there are more pages but sent no cursor.
        case missingCursor
        /// Pages kept adding no new item.
        case noProgress(pages: Int)
    }

    /// The current query generation.
    package private(set) var generation = 0
    /// The cursor the next request carries (`nil` for the first page).
    package private(set) var nextCursor: String?
    /// The visible IDs, de-duplicated, in the server's order.
    package private(set) var ids: [ID] = []
    /// The request whose response may be accepted.
    package private(set) var inFlight: CursorTicket?
    /// Whether the last accepted response said more pages exist.
    package private(set) var hasMore = true
    /// Whether the current page failed.
    package private(set) var failed = false
    /// Why automatic loading stopped, if it did.
    package private(set) var protocolError: ProtocolError?
    /// How many pages in a row may add nothing before loading stops.
    package let noProgressLimit: Int

    private var requestedCursors: Set<String> = []
    private var pagesWithoutProgress = 0
    private var fillTarget: Int?

    /// Creates an empty pager.
    package init(noProgressLimit: Int = 3) {
        self.noProgressLimit = noProgressLimit
    }

    /// Whether a request is in flight.
    package var isLoading: Bool { inFlight != nil }

    /// Starts loading the next page, or returns `nil` when one is in flight, the list ended,
    /// or a protocol error stopped loading.
    package mutating func start() -> CursorTicket? {
        guard hasMore, protocolError == nil, inFlight == nil else { return nil }
        let ticket = CursorTicket(generation: generation, cursor: nextCursor)
        if let cursor = nextCursor { requestedCursors.insert(cursor) }
        inFlight = ticket
        return ticket
    }

    // `@specialized` (Swift 6.3 and later) also compiles the methods below for `Int` IDs, and a
    // caller in another module that uses `Int` runs that copy: no generic metadata at run time.
    // The kit's bundled adapters use `Int` IDs; the explorer spent 12% less CPU time per
    // schedule on the reference pager with it.

    /// Starts a new query (filter change or refresh): no cursor, every earlier ticket stale.
    #if compiler(>=6.3)
    @specialized(where ID == Int)
    #endif
    package mutating func reset() {
        generation += 1
        nextCursor = nil
        ids = []
        inFlight = nil
        hasMore = true
        failed = false
        protocolError = nil
        requestedCursors = []
        pagesWithoutProgress = 0
        fillTarget = nil
    }

    /// Accepts a response if `ticket` is the one in flight, storing its cursor.
    /// - Returns: Whether the response was accepted.
    #if compiler(>=6.3)
    @specialized(where ID == Int)
    #endif
    @discardableResult
    package mutating func finish(
        _ ticket: CursorTicket, rows: [ID], hasMore: Bool, nextCursor: String?
    ) -> Bool {
        guard inFlight == ticket else { return false }
        var seen = Set(ids)
        let countBefore = ids.count
        for id in rows where seen.insert(id).inserted {
            ids.append(id)
        }
        inFlight = nil
        failed = false
        self.hasMore = hasMore
        self.nextCursor = nextCursor
        pagesWithoutProgress = ids.count == countBefore ? pagesWithoutProgress + 1 : 0
        if hasMore {
            if nextCursor == nil {
                protocolError = .missingCursor
            } else if nextCursor == ticket.cursor {
                protocolError = .cursorDidNotAdvance(nextCursor)
            } else if let nextCursor, requestedCursors.contains(nextCursor) {
                protocolError = .cursorRepeated(nextCursor)
            } else if pagesWithoutProgress >= noProgressLimit {
                protocolError = .noProgress(pages: pagesWithoutProgress)
            }
        }
        return true
    }

    /// Records a failure if `ticket` is the one in flight; the cursor stays, so the next
    /// ``start()`` retries the same page.
    #if compiler(>=6.3)
    @specialized(where ID == Int)
    #endif
    @discardableResult
    package mutating func fail(_ ticket: CursorTicket) -> Bool {
        guard inFlight == ticket else { return false }
        inFlight = nil
        failed = true
        fillTarget = nil
        return true
    }

    /// Starts filling the screen until `minimumCount` items are visible.
    #if compiler(>=6.3)
    @specialized(where ID == Int)
    #endif
    package mutating func fill(minimumCount: Int) -> CursorTicket? {
        fillTarget = minimumCount
        return continueFill()
    }

    /// During a fill, starts the next page if the screen is not full yet.
    #if compiler(>=6.3)
    @specialized(where ID == Int)
    #endif
    package mutating func continueFill() -> CursorTicket? {
        guard let target = fillTarget, ids.count < target, let ticket = start() else {
            fillTarget = nil
            return nil
        }
        return ticket
    }
}
