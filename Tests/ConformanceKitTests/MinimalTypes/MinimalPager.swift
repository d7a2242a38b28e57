import ConformanceTesting
import Foundation
import Testing

/// The smallest correct pager with one setting per conforming variation of `CONTRACTS.md`,
/// run over their combinations (as swift-collections runs its conformance checkers over its
/// minimal types): each combination must pass every applicable contract.
@MainActor
final class MinimalPager {
    /// One choice per conforming variation.
    struct Settings: Hashable, Sendable, CustomTestStringConvertible {
        enum QueryChange: String, Sendable, CaseIterable { case loads, waitsForNextTrigger }
        enum Duplicate: String, Sendable, CaseIterable { case ignored, joined, rejected }
        enum Completion: String, Sendable, CaseIterable { case asyncAwait, mainQueue, mainActor }

        var queryChange = QueryChange.loads
        var duplicate = Duplicate.ignored
        /// Items a bottom trigger loads pages for (0: one page per trigger).
        var fillTarget = 0
        var completion = Completion.asyncAwait
        var firstLoadOnAppear = false
        /// A query change waits for the running request to finish before loading page 1.
        var serialRequests = false
        /// The trigger runs through an intermediate task (a debouncer's shape).
        var throughIntermediateTask = false

        @TaskLocal static var current = Settings()

        var testDescription: String {
            var parts = ["query change \(queryChange.rawValue)", "duplicate \(duplicate.rawValue)"]
            if fillTarget > 0 { parts.append("fill \(fillTarget)") }
            if completion != .asyncAwait { parts.append("completion on \(completion.rawValue)") }
            if firstLoadOnAppear { parts.append("first load on appear") }
            if serialRequests { parts.append("serial requests") }
            if throughIntermediateTask { parts.append("intermediate task") }
            return parts.joined(separator: ", ")
        }

        /// Every combination that makes sense: callbacks do not join, wait or queue (their
        /// triggers are synchronous); a join through an intermediate task is left out (see below).
        static var combinations: [Settings] {
            var all: [Settings] = []
            for queryChange in QueryChange.allCases {
                for duplicate in Duplicate.allCases {
                    for fillTarget in [0, 12] {
                        for completion in Completion.allCases {
                            for appear in [false, true] {
                                for serial in [false, true] {
                                    for intermediate in [false, true] {
                                        if completion != .asyncAwait
                                            && (duplicate == .joined || serial || intermediate)
                                        {
                                            continue
                                        }
                                        // Known gap (issue 11, item 11): several triggers
                                        // joining one load through intermediate tasks can use
                                        // up the five task priorities; the watchdog then names
                                        // it. Left out until the ladder lasts longer.
                                        if duplicate == .joined && intermediate { continue }
                                        all.append(
                                            Settings(
                                                queryChange: queryChange, duplicate: duplicate,
                                                fillTarget: fillTarget, completion: completion,
                                                firstLoadOnAppear: appear, serialRequests: serial,
                                                throughIntermediateTask: intermediate))
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return all
        }
    }

    struct Rejected: Error {}

    let settings: Settings
    let source: PageSource
    private(set) var items: [Int] = []
    private(set) var hasMore = true
    private(set) var failed = false
    private var query = "A"
    private var generation = 0
    private var nextPage = 1
    private var emptyInARow = 0
    private var loadTask: Task<Void, Never>?
    private var callbackInFlight = false

    init(settings: Settings, source: PageSource) {
        self.settings = settings
        self.source = source
    }

    var isLoading: Bool { loadTask != nil || callbackInFlight }

    // MARK: - Triggers

    func bottomReached() async throws {
        if settings.throughIntermediateTask {
            let body = Task { try await self.loadOrJoin() }
            try await body.value
        } else {
            try await loadOrJoin()
        }
    }

    func appear() async throws {
        guard items.isEmpty, !isLoading else { return }
        try await bottomReached()
    }

    func changeQuery(to newQuery: String) async throws {
        let previous = loadTask
        if settings.serialRequests, let previous { await previous.value }
        query = newQuery
        generation += 1
        nextPage = 1
        hasMore = true
        failed = false
        emptyInARow = 0
        items = []
        loadTask = nil
        callbackInFlight = false
        // A cleared search field (declared as `clearedQuery`): an empty list, nothing to load.
        if newQuery.isEmpty {
            hasMore = false
            return
        }
        if settings.queryChange == .loads { try await loadOrJoin() }
    }

    func refresh() async throws { try await changeQuery(to: query) }

    // MARK: - Loading

    private func loadOrJoin() async throws {
        if isLoading {
            switch settings.duplicate {
            case .ignored: return
            case .joined: await loadTask?.value; return
            case .rejected: throw Rejected()
            }
        }
        guard hasMore, emptyInARow < 3 else { return }
        if settings.completion != .asyncAwait {
            fetchWithCallback(generation: generation, loadedBefore: items.count)
            return
        }
        let generation = self.generation
        let task = Task { await self.loadPages(generation: generation) }
        loadTask = task
        await task.value
    }

    /// Loads pages until the fill target (one page when 0), committing each one.
    private func loadPages(generation: Int) async {
        let before = items.count
        repeat {
            let result: Result<PageResponse, any Error>
            do {
                result = .success(try await source.load(query: query, page: nextPage))
            } catch {
                result = .failure(error)
            }
            guard generation == self.generation else { return }
            guard accept(result) else { break }
        } while settings.fillTarget > 0 && hasMore && items.count - before < settings.fillTarget
            && emptyInARow < 3
        loadTask = nil
    }

    private func fetchWithCallback(generation: Int, loadedBefore: Int) {
        callbackInFlight = true
        let page = nextPage
        let handle: @MainActor (Result<PageResponse, any Error>) -> Void = { result in
            guard generation == self.generation, self.callbackInFlight, page == self.nextPage
            else { return }
            self.callbackInFlight = false
            if self.accept(result), self.settings.fillTarget > 0, self.hasMore,
                self.items.count - loadedBefore < self.settings.fillTarget, self.emptyInARow < 3
            {
                self.fetchWithCallback(generation: generation, loadedBefore: loadedBefore)
            }
        }
        switch settings.completion {
        case .mainQueue:
            source.load(query: query, page: page) { (result: Result<PageResponse, any Error>) in
                DispatchQueue.main.async { handle(result) }
            }
        default:
            source.load(query: query, page: page, onMainActor: handle)
        }
    }

    /// Applies an answer of the current generation; `true` when it was a page.
    private func accept(_ result: Result<PageResponse, any Error>) -> Bool {
        switch result {
        case .success(let response):
            var seen = Set(items)
            let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
            items += added
            emptyInARow = added.isEmpty ? emptyInARow + 1 : 0
            nextPage += 1
            // Three pages in a row without a new item: the stall shows as the end of the list.
            hasMore = response.hasMore && emptyInARow < 3
            failed = false
            return true
        case .failure:
            failed = true
            loadTask = nil
            return false
        }
    }
}

/// Drives ``MinimalPager`` with the settings of the task it runs in.
struct MinimalPagerAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities {
        let settings = MinimalPager.Settings.current
        return PagerCapabilities(
            triggers: settings.firstLoadOnAppear ? [.refresh, .appear] : [.refresh],
            loader: settings.completion == .asyncAwait ? .asyncAwait : .completionHandler,
            clearedQuery: "")
    }

    let pager: MinimalPager

    init(source: PageSource) async {
        let settings = MinimalPager.Settings.current
        pager = await MinimalPager(settings: settings, source: source)
    }

    func bottomReached() async throws { try await pager.bottomReached() }
    func appear() async throws { try await pager.appear() }
    func changeQuery(to query: String) async throws { try await pager.changeQuery(to: query) }
    func refresh() async throws { try await pager.refresh() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: pager.items, isLoading: pager.isLoading, hasMore: pager.hasMore,
                showsError: pager.failed)
        }
    }
}
