import ConformanceKit
import Foundation

/// The scripted timeline a pager contract is written in.
///
/// The kit, not the clock, decides the order: the contract fires triggers, answers the
/// requests the pager started in the order it chooses, and checks what the user sees. Each
/// call is recorded in the transcript. The same contract runs at every level of integration.
///
/// The pager starts on query `"A"`, generation 0. Each query change or refresh starts a new
/// generation; a request from an earlier generation is stale.
package final class PagerTimeline {
    let driver: any PagerDriving
    let recorder: TimelineRecorder

    /// The adapter's declared capabilities.
    package let capabilities: PagerCapabilities
    /// The current query.
    package private(set) var query = "A"
    /// The current generation (query changes and refreshes so far).
    package private(set) var generation = 0
    /// Every request the pager started, in order.
    package private(set) var requests: [PageRequestRecord] = []
    /// The tier of the contract's own findings from here on; a contract lowers it for its
    /// recommended part. A setup step blocked by another rule takes that rule's tier instead.
    package var tier: ContractTier
    /// The contract whose timeline this is.
    package let contract: ContractID
    /// The rule a setup step running now depends on (see ``setup(_:_:)``), or `nil` while the
    /// contract checks its own rule.
    package private(set) var setupRule: ContractID?

    private var answerCounts: [Int: Int] = [:]
    /// How many times each row ID was served so far: the next one serves it at that revision.
    private var servings: [Int: Int] = [:]
    private var followUpShift: [Int: Int] = [:]
    private var fillerCount = 0
    private var cursorSources: [String: (query: String, generation: Int, page: Int)] = [:]
    private var acceptedCursors: [PageKey: String] = [:]
    /// The current generation's last page answer (its first delivery) when it said more pages
    /// exist, and how many rows it had; `nil` after one that said the list ended.
    private var lastPageSaidMore: (request: PageRequestRecord, rows: Int)?
    /// Set by a bottom trigger that started nothing while the pager showed "no more" although
    /// the current query's last page said more exist: the end of the list was misread.
    private(set) var misreadEnd: String?

    private struct PageKey: Hashable {
        let generation: Int
        let page: Int
    }

    init(driver: any PagerDriving, recorder: TimelineRecorder, contract: ContractID) {
        self.driver = driver
        self.recorder = recorder
        self.capabilities = driver.capabilities
        self.tier = recorder.tier
        self.contract = contract
    }

    /// Runs a setup step: one that reaches the state the contract's rule is about and that
    /// only holds if `rule` holds. A check failing inside it blocks the contract by `rule`
    /// (reported with that rule's text and hint) instead of failing it, unless `rule` is the
    /// contract's own. Nested setups keep the innermost rule.
    package func setup<T>(_ rule: ContractID, _ body: () async throws -> T) async throws -> T {
        let outer = setupRule
        setupRule = rule
        defer { setupRule = outer }
        return try await body()
    }

    /// Why another trigger fired now could not be observed (the async level's priority ladder
    /// is used up by the triggers still waiting), or `nil` when it can.
    package var triggerUnobservable: String? { driver.triggerUnobservable }

    /// Notes in the transcript that a check was left out, and why.
    package func skipCheck(_ check: String, because reason: String) {
        recorder.record("— not checked: \(check) (\(reason)) —")
        recorder.note("Not checked: \(check), because \(reason).")
    }

    /// Whether the last trigger is still running, blocked on an open request.
    var lastTriggerWaits: Bool { driver.lastTriggerWaits }

    /// The number of times `request` was answered so far.
    func answerCount(of request: PageRequestRecord) -> Int { answerCounts[request.number, default: 0] }

    /// Whether one response can be delivered twice at this level (see P3).
    package var canDeliverTwice: Bool { driver.canDeliverTwice }

    /// `true` when the pager uses cursors.
    package var usesCursors: Bool { capabilities.pagination == .cursors }

    // MARK: - Triggers

    /// The user reached the bottom of the list.
    /// - Returns: The requests the trigger started (none when ignored, joined or rejected).
    @discardableResult
    package func bottomReached() async throws -> [PageRequestRecord] {
        let started = try await fire(.bottomReached)
        if started.isEmpty, let last = lastPageSaidMore, last.request.generation == generation,
            !requests.contains(where: { $0.generation == generation && answerCounts[$0.number, default: 0] == 0 }),
            await state().hasMore == false
        {
            misreadEnd = "The pager shows hasMore false, though the answer to \(last.request), "
                + "with \(last.rows) row\(last.rows == 1 ? "" : "s"), said more pages exist."
        }
        return started
    }

    /// The hint for a list that ended although the server said more pages exist.
    static let misreadEndHint = "Take hasMore from the answer (the server's flag, or whether it "
        + "sent a next cursor), never from the number of rows: a page shorter than the page size "
        + "is not the last one (the server may filter rows out, or cut pages short)."

    /// The filter changed to `newQuery`: a new generation starts.
    @discardableResult
    package func changeQuery(to newQuery: String) async throws -> [PageRequestRecord] {
        query = newQuery
        generation += 1
        return try await fire(.changeQuery(newQuery))
    }

    /// Pull-to-refresh: a new generation of the same query.
    @discardableResult
    package func refresh() async throws -> [PageRequestRecord] {
        generation += 1
        return try await fire(.refresh)
    }

    /// The user tapped retry.
    @discardableResult
    package func retry() async throws -> [PageRequestRecord] {
        try await fire(.retry)
    }

    /// The list appeared (the first load of an adapter that declares `.appear`).
    @discardableResult
    package func appear() async throws -> [PageRequestRecord] {
        try await fire(.appear)
    }

    /// A trigger that loads pages until the screen is full.
    @discardableResult
    package func fillScreen() async throws -> [PageRequestRecord] {
        try await fire(.fillScreen)
    }

    // MARK: - Answers

    /// The cursor a response carries.
    package enum NextCursor: Hashable, Sendable {
        /// A fresh cursor for the next page (none when `hasMore` is false).
        case generated
        /// Exactly this cursor.
        case fixed(String?)
    }

    /// What the kit does with requests a pager chains by itself in reaction to an answer (a
    /// pager that fetches pages until a screenful is visible).
    package enum FollowUps: Hashable, Sendable {
        /// The kit answers each one at once with new rows (`hasMore` true), as a server would,
        /// until the pager stops chaining; the contract's own page numbers then count from the
        /// pages the contract delivered (the follow-ups shift the pager's page numbers, which
        /// the kit accounts for), and the filler rows are left out of visible-item checks.
        case answered
        /// They are returned to the contract, which answers them itself (P12, P13).
        case returned
    }

    /// The most follow-up requests the kit answers for one delivery before it calls the chain
    /// endless.
    static let followUpLimit = 24

    /// Delivers a page to `request`.
    /// - Parameters:
    ///   - request: The request to answer (it may be stale, or already answered).
    ///   - rows: The rows' kit IDs, in the server's order.
    ///   - hasMore: Whether the server says more pages exist.
    ///   - cursor: The cursor the response carries (cursor pagination only).
    ///   - followUps: Whether the kit answers the requests the pager chains in reaction
    ///     (default) or returns them.
    /// - Returns: Requests the pager started in response that the kit did not answer.
    @discardableResult
    package func deliver(
        _ request: PageRequestRecord, rows: [Int], hasMore: Bool, cursor: NextCursor = .generated,
        followUps: FollowUps = .answered
    ) async throws -> [PageRequestRecord] {
        let started = try await deliverOnce(request, rows: rows, hasMore: hasMore, cursor: cursor)
        guard followUps == .answered, request.generation == generation else { return started }
        return try await answerFollowUps(started, after: request, hasMore: hasMore)
    }

    /// Answers the current-generation requests in `started` with filler pages until the pager
    /// stops chaining; returns the others.
    private func answerFollowUps(
        _ started: [PageRequestRecord], after request: PageRequestRecord, hasMore: Bool
    ) async throws -> [PageRequestRecord] {
        let chained = { (later: PageRequestRecord, earlier: PageRequestRecord) in
            later.generation == self.generation
                && self.driver.isFollowUp(later.number - 1, of: earlier.number - 1)
        }
        var queue = started.filter { chained($0, request) }
        var others = started.filter { !chained($0, request) }
        var answered = 0
        while !queue.isEmpty {
            let followUp = queue.removeFirst()
            if !hasMore {
                throw violation(
                    under: setupRule == nil ? nil : "P7",
                    "Expected no request after the answer to \(request) said there are no more "
                        + "pages, but the pager chained \(followUp) by itself.",
                    expected: "requests: none", actual: "requests: \(followUp)",
                    hint: PagerContract.hint("P7"))
            }
            answered += 1
            if answered > Self.followUpLimit {
                throw violation(
                    under: contract == "P12" ? nil : "P12",
                    "Expected the pager to stop chaining requests once the screen was full, but "
                        + "after the answer to \(request) it chained \(Self.followUpLimit) follow-ups "
                        + "and then \(followUp).",
                    expected: "a bounded fill", actual: "requests: \(answered)",
                    hint: PagerContract.hint("P12"))
            }
            let fillerRows = (0..<Self.fillerPageSize).map { _ in nextFillerID() }
            followUpShift[generation, default: 0] += 1
            let more = try await deliverOnce(
                followUp, rows: fillerRows, hasMore: true, cursor: .generated,
                note: "a follow-up the pager chained: filler rows")
            queue += more.filter { chained($0, followUp) }
            others += more.filter { !chained($0, followUp) }
        }
        return others
    }

    /// Rows per filler page, the answer to a follow-up request.
    static let fillerPageSize = 5
    /// The first filler row's ID; filler rows never collide with a contract's own rows.
    static let firstFillerID = 900_001

    private func nextFillerID() -> Int {
        defer { fillerCount += 1 }
        return Self.firstFillerID + fillerCount
    }

    /// Whether `id` is a filler row the kit answered a follow-up with.
    func isFiller(_ id: Int) -> Bool { id >= Self.firstFillerID }

    private func deliverOnce(
        _ request: PageRequestRecord, rows: [Int], hasMore: Bool, cursor: NextCursor,
        note: String? = nil
    ) async throws -> [PageRequestRecord] {
        var nextCursor: String? = nil
        if usesCursors {
            switch cursor {
            case .fixed(let fixed): nextCursor = fixed
            case .generated:
                if hasMore, let page = request.page {
                    nextCursor = Self.cursor(query: request.query, generation: request.generation, page: page + 1)
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
        if request.generation == generation, answerCounts[request.number, default: 0] == 0 {
            lastPageSaidMore = hasMore ? (request, rows.count) : nil
        }
        let response = PageResponse(rows: served(rows), hasMore: hasMore, nextCursor: nextCursor)
        return try await answer(request, with: .page(response), note: note)
    }

    /// The cursor the kit's server hands out for a page: opaque Base64, as real APIs send
    /// (Relay's `YXJyYXljb25uZWN0aW9uOjE=`), with `=` padding, so a pager that stores it in
    /// another form (percent-encoded for a URL) and compares that with the server's is caught
    /// (the twenty-first trial's `GenericPaginator` missed every stall). Its text decodes to
    /// `<query>-g<generation>-p<page>`.
    static func cursor(query: String, generation: Int, page: Int) -> String {
        Data("\(query)-g\(generation)-p\(page)".utf8).base64EncodedString()
    }

    /// `ids` as rows, each at the revision its earlier servings give it: a duplicate comes back
    /// edited, so a pager that compares whole items instead of IDs shows it twice (the
    /// sixteenth trial's `ActivityTimeline`).
    private func served(_ ids: [Int]) -> [PageRow] {
        ids.map { id in
            let revision = servings[id, default: 0]
            servings[id] = revision + 1
            return PageRow(id: id, revision: revision)
        }
    }

    /// Answers `request` with a failure.
    @discardableResult
    package func fail(_ request: PageRequestRecord, with failure: PageFailure) async throws
        -> [PageRequestRecord]
    {
        try await answer(request, with: .failure(failure))
    }

    /// What the user sees now.
    package func state() async -> PagerState {
        recorder.setWaiting(for: "a snapshot of the pager")
        return await driver.state()
    }

    /// Marks the start of a section in the transcript, such as the recommended part of a rule.
    package func section(_ title: String) {
        recorder.record("— \(title) —")
    }

    // MARK: - Bookkeeping

    private func fire(_ trigger: PagerTrigger) async throws -> [PageRequestRecord] {
        misreadEnd = nil
        recorder.setWaiting(for: "the pager to handle \"\(trigger)\"")
        let outcome: TriggerOutcome
        do {
            outcome = try await driver.perform(trigger)
        } catch let misuse as AdapterMisuse {
            // The failing step is this trigger: shown, so the ▶ and the message agree.
            recorder.record("\(trigger) → \(AdapterMisuse.stepNote)")
            throw misuse
        }
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

    private func answer(
        _ request: PageRequestRecord, with answer: PageAnswer, note extra: String? = nil
    ) async throws -> [PageRequestRecord] {
        misreadEnd = nil
        let repeatCount = answerCounts[request.number, default: 0]
        answerCounts[request.number] = repeatCount + 1
        var context: [String] = extra.map { [$0] } ?? []
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

    /// The pager's own number for the contract's page `page` of the current generation: the
    /// follow-ups the kit answered before it shift it.
    func actualPage(_ page: Int) -> Int {
        page == 1 ? 1 : page + followUpShift[generation, default: 0]
    }

    /// The position a correct pager asks for when loading `page` of the current generation.
    func expectedPosition(forPage page: Int) -> PagePosition? {
        let page = actualPage(page)
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
