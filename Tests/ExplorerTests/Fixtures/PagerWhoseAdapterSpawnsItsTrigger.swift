import ConformanceTesting

/// A small actor feed: an in-flight guard, de-duplication, the end of the list.
actor TinyFeed {
    private(set) var items: [Int] = []
    private(set) var isLoading = false
    private var nextPage = 1
    private var hasMore = true

    func loadNext(from source: PageSource) async {
        guard !isLoading, hasMore else { return }
        isLoading = true
        defer { isLoading = false }
        do {
            let response = try await source.load(query: "A", page: nextPage)
            var known = Set(items)
            for row in response.rows where known.insert(row.id).inserted { items.append(row.id) }
            nextPage += 1
            hasMore = response.hasMore
        } catch {
            // A failed page is asked for again by the next trigger.
        }
    }
}

/// ``TinyFeed`` behind an adapter that spawns its bottom trigger in a `Task` and returns
/// without awaiting it, as a view's `onAppear { Task { … } }` does: the kit cannot settle work
/// nobody awaits, so every schedule that loads ends on an adapter error, no rule's verdict.
struct PagerWhoseAdapterSpawnsItsTrigger: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { PagerCapabilities(changesQuery: false) }

    let source: PageSource
    let feed = TinyFeed()

    init(source: PageSource) async {
        self.source = source
    }

    func bottomReached() async throws {
        let feed = feed
        let source = source
        Task { await feed.loadNext(from: source) }
    }

    func changeQuery(to query: String) async throws {}

    func snapshot() async -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: await feed.items, isLoading: await feed.isLoading)
    }
}
