import ConformanceKit

/// The scripted timeline a pager contract is written in.
///
/// The kit, not the clock, decides the order: the contract fires triggers, answers the
/// requests the pager started in the order it chooses, and checks what the user sees. Each
/// call is recorded in the transcript. The same contract runs at every level of integration.
///
/// The pager starts on query `"A"`, generation 0. Each query change or refresh starts a new
/// generation; a request from an earlier generation is stale.
public final class PagerTimeline {
    let driver: any PagerDriving
    let recorder: TimelineRecorder

    /// The adapter's declared capabilities.
    public let capabilities: PagerCapabilities
    /// The current query.
    public private(set) var query = "A"
    /// The current generation (query changes and refreshes so far).
    public private(set) var generation = 0
    /// Every request the pager started, in order.
    public private(set) var requests: [PageRequestRecord] = []
    /// The tier of the findings from here on; a contract lowers it for its recommended part.
    public var tier: ContractTier

    private var answerCounts: [Int: Int] = [:]
    private var cursorSources: [String: (query: String, generation: Int, page: Int)] = [:]
    private var acceptedCursors: [PageKey: String] = [:]

    private struct PageKey: Hashable {
        let generation: Int
        let page: Int
    }

    init(driver: any PagerDriving, recorder: TimelineRecorder) {
        self.driver = driver
        self.recorder = recorder
        self.capabilities = driver.capabilities
        self.tier = recorder.tier
    }

    /// Whether one response can be delivered twice at this level (see P3).
    public var canDeliverTwice: Bool { driver.canDeliverTwice }

    /// `true` when the pager uses cursors.
    public var usesCursors: Bool { capabilities.pagination == .cursors }

    // MARK: - Triggers

    /// The user reached the bottom of the list.
    /// - Returns: The requests the trigger started (none when ignored, joined or rejected).
    @discardableResult
    public func bottomReached() async throws -> [PageRequestRecord] {
        try await fire(.bottomReached)
    }

    /// The filter changed to `newQuery`: a new generation starts.
    @discardableResult
    public func changeQuery(to newQuery: String) async throws -> [PageRequestRecord] {
        query = newQuery
        generation += 1
        return try await fire(.changeQuery(newQuery))
    }

    /// Pull-to-refresh: a new generation of the same query.
    @discardableResult
    public func refresh() async throws -> [PageRequestRecord] {
        generation += 1
        return try await fire(.refresh)
    }

    /// The user tapped retry.
    @discardableResult
    public func retry() async throws -> [PageRequestRecord] {
        try await fire(.retry)
    }

    /// A trigger that loads pages until the screen is full.
    @discardableResult
    public func fillScreen() async throws -> [PageRequestRecord] {
        try await fire(.fillScreen)
    }

    // MARK: - Answers

    /// The cursor a response carries.
    public enum NextCursor: Hashable, Sendable {
        /// A fresh cursor for the next page (none when `hasMore` is false).
        case generated
        /// Exactly this cursor.
        case fixed(String?)
    }

    /// Delivers a page to `request`.
    /// - Parameters:
    ///   - request: The request to answer (it may be stale, or already answered).
    ///   - rows: The rows' kit IDs, in the server's order.
    ///   - hasMore: Whether the server says more pages exist.
    ///   - cursor: The cursor the response carries (cursor pagination only).
    /// - Returns: Requests the pager started in response (a pager that fills the screen).
    @discardableResult
    public func deliver(
        _ request: PageRequestRecord, rows: [Int], hasMore: Bool, cursor: NextCursor = .generated
    ) async throws -> [PageRequestRecord] {
        var nextCursor: String? = nil
        if usesCursors {
            switch cursor {
            case .fixed(let fixed): nextCursor = fixed
            case .generated:
                if hasMore, let page = request.page {
                    nextCursor = "\(request.query)-g\(request.generation)-p\(page + 1)"
                }
            }
            if let nextCursor, cursorSources[nextCursor] == nil, let page = request.page {
                cursorSources[nextCursor] = (request.query, request.generation, page + 1)
            }
            if let page = request.page, request.generation == generation,
                answerCounts[request.number, default: 0] == 0
            {
                let key = PageKey(generation: generation, page: page + 1)
                if acceptedCursors[key] == nil, let nextCursor { acceptedCursors[key] = nextCursor }
            }
        }
        let response = PageResponse(
            rows: rows.map(PageRow.init(id:)), hasMore: hasMore, nextCursor: nextCursor)
        return try await answer(request, with: .page(response))
    }

    /// Answers `request` with a failure.
    @discardableResult
    public func fail(_ request: PageRequestRecord, with failure: PageFailure) async throws
        -> [PageRequestRecord]
    {
        try await answer(request, with: .failure(failure))
    }

    /// What the user sees now.
    public func state() async -> PagerState {
        recorder.setWaiting(for: "a snapshot of the pager")
        return await driver.state()
    }

    /// Marks the start of a section in the transcript, such as the recommended part of a rule.
    public func section(_ title: String) {
        recorder.record("— \(title) —")
    }

    // MARK: - Bookkeeping

    private func fire(_ trigger: PagerTrigger) async throws -> [PageRequestRecord] {
        recorder.setWaiting(for: "the pager to handle \"\(trigger)\"")
        let outcome = try await driver.perform(trigger)
        let notes = driver.takeNotes().map { " (\($0))" }.joined()
        switch outcome {
        case .started(let positions):
            let started = positions.map(register)
            recorder.record("\(trigger) → \(Self.describe(started))\(notes)")
            return started
        case .rejected(let error):
            recorder.record("\(trigger) → rejected: \(error)\(notes)")
            return []
        }
    }

    private func answer(_ request: PageRequestRecord, with answer: PageAnswer) async throws
        -> [PageRequestRecord]
    {
        let repeatCount = answerCounts[request.number, default: 0]
        answerCounts[request.number] = repeatCount + 1
        var context: [String] = []
        if repeatCount > 0 { context.append("again: delivery \(repeatCount + 1)") }
        if request.generation != generation {
            context.append("stale: issued under query \(request.query), gen \(request.generation)")
        }
        let note = context.isEmpty ? "" : " [\(context.joined(separator: "; "))]"
        recorder.setWaiting(for: "the pager to handle the answer to \(request)")
        let positions = try await driver.answer(request: request.number - 1, with: answer)
        let started = positions.map(register)
        let tail = started.isEmpty ? "" : " → \(Self.describe(started))"
        let notes = driver.takeNotes().map { " (\($0))" }.joined()
        recorder.record("answer \(request)\(note): \(answer)\(tail)\(notes)")
        return started
    }

    private func register(_ position: PagePosition) -> PageRequestRecord {
        var page: Int? = nil
        var origin: String? = nil
        switch position {
        case .page(let number):
            page = number
        case .cursor(nil):
            page = 1
        case .cursor(let cursor?):
            if let source = cursorSources[cursor] {
                page = source.page
                if source.generation != generation {
                    origin = "a cursor from query \(source.query), gen \(source.generation)"
                }
            }
        }
        let record = PageRequestRecord(
            number: requests.count + 1, query: query, generation: generation,
            position: position, page: page, cursorOrigin: origin)
        requests.append(record)
        return record
    }

    /// The position a correct pager asks for when loading `page` of the current generation.
    func expectedPosition(forPage page: Int) -> PagePosition? {
        guard usesCursors else { return .page(page) }
        if page == 1 { return .cursor(nil) }
        return acceptedCursors[PageKey(generation: generation, page: page)].map(PagePosition.cursor)
    }

    static func describe(_ started: [PageRequestRecord]) -> String {
        switch started.count {
        case 0: "no request"
        default: started.map(\.description).joined(separator: ", ")
        }
    }
}
