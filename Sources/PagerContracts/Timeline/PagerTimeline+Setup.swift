import ConformanceKit

extension PagerTimeline {
    /// The first load of the list: the appear event when the adapter declares `.appear`,
    /// otherwise the first bottom trigger. Expected to start one request, for page 1; a pager
    /// that cannot do that breaks P1, so elsewhere this is a setup step blocked by P1.
    package func firstLoad() async throws -> PageRequestRecord {
        try await setup("P1") {
            if capabilities.triggers.contains(.appear) {
                return try expectOneRequest(try await appear(), forPage: 1, after: "the list appeared")
            }
            return try expectOneRequest(
                try await bottomReached(), forPage: 1, after: "the first bottom trigger")
        }
    }

    /// The first load, answered with `rows`, and those rows visible (a setup step: P1).
    @discardableResult
    package func loadFirstPage(rows: [Int], hasMore: Bool = true) async throws -> PageRequestRecord {
        let request = try await firstLoad()
        try await acceptPage(request, rows: rows, hasMore: hasMore, visible: rows, after: "page 1 arrived")
        return request
    }

    /// A bottom trigger expected to start one request, for `page` of the current query (for
    /// cursors, with the last accepted cursor). A setup step: P1 (P9 for a wrong cursor).
    package func requestNextPage(_ page: Int, after action: String) async throws -> PageRequestRecord {
        try await setup("P1") {
            try expectOneRequest(try await bottomReached(), forPage: page, after: action)
        }
    }

    /// Delivers an ordinary page (new IDs only) and expects exactly `visible` (a setup step:
    /// P1, or `rule`, such as P4 for a new query's first page).
    package func acceptPage(
        _ request: PageRequestRecord, rows: [Int], hasMore: Bool = true, visible: [Int],
        after action: String, rule: ContractID = "P1"
    ) async throws {
        try await setup(rule) {
            try await deliver(request, rows: rows, hasMore: hasMore)
            try await expectVisible(visible, after: action)
        }
    }

    /// The control for a negative check: a bottom trigger while `what` loads starts no
    /// request (P1). Run it before the stale answer, so that a request after the stale answer
    /// is the stale answer's doing.
    package func expectIgnoredWhileLoading(_ what: String) async throws {
        try await setup("P1") {
            try expectNoRequest(
                try await bottomReached(), after: "bottom reached while \(what) loads",
                because: "\(what) is still in flight")
        }
    }

    /// The start of the stale-answer contracts (P4, P5, P8): page 1 of query A accepted and
    /// page 2 of A requested, then query B's first page accepted and page 2 of B requested.
    /// Setup steps: P1, and P4 (P9 for cursors) for query B's first page.
    /// - Returns: Page 2 of A, stale from the query change on, and page 2 of B, in flight.
    package func loadNextPageAfterStaleRequest() async throws
        -> (stale: PageRequestRecord, current: PageRequestRecord)
    {
        try await loadFirstPage(rows: [1, 2, 3])
        let stale = try await requestNextPage(2, after: "bottom reached on query A")

        let first = try await switchQuery(to: "B")
        try await acceptPage(
            first, rows: [101, 102], visible: [101, 102], after: "query B's first page arrived",
            rule: "P4")
        return (stale, try await requestNextPage(2, after: "bottom reached on query B"))
    }

    /// Changes the query and returns the new query's first-page request (loaded by the query
    /// change, or by the next bottom trigger). A setup step: P9 for cursors (the first
    /// request of a query carries no cursor), P4 for page numbers, unless `rule` says.
    package func switchQuery(to newQuery: String, rule: ContractID? = nil) async throws
        -> PageRequestRecord
    {
        let action = "the query change to \(newQuery)"
        return try await setup(rule ?? (usesCursors ? "P9" : "P4")) {
            try await firstPageRequest(after: try await changeQuery(to: newQuery), of: action)
        }
    }

    /// Refreshes and returns the refreshed first-page request (a setup step: P11 unless
    /// `rule` says; P9 for a wrong cursor).
    package func refreshList(_ action: String = "refresh", rule: ContractID = "P11") async throws
        -> PageRequestRecord
    {
        try await setup(rule) {
            try await firstPageRequest(after: try await refresh(), of: action)
        }
    }

    /// A new generation: a query change when the adapter has one, otherwise a refresh.
    package func newGeneration(query newQuery: String, rule: ContractID? = nil) async throws
        -> PageRequestRecord
    {
        if capabilities.changesQuery { return try await switchQuery(to: newQuery, rule: rule) }
        return try await refreshList("refresh (the adapter declares no query change)", rule: rule ?? "P11")
    }
}
