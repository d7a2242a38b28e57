// From an outside trial (round seven): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only. Its bug (by its
// author's choice): `retry()` calls `loadNextPage()`, which starts only from `.idle`, and the failure left `.failed`: "Try again" does nothing (P6).

import Foundation

// Round 7, pager 4: a reusable generic `Paginator<Item, Cursor>` configured with closures,
// driven by a prefetch threshold (the collection view's `willDisplay` loads when the displayed
// index passes `count - prefetchDistance`). Intended: BUGGY (one bug, on purpose).
//
// THE BUG (written down before any run): after a failed page the phase is `.failed`; the
// "Try again" footer calls `retry()`, which checks that a failure is showing and then calls
// `loadNextPage()` — but `loadNextPage()` only starts from `.idle`, and `retry()` never moved
// the phase back to `.idle`. The retry button does nothing, forever (until the query changes).
// Expected contract: P6 failure keeps items, retry same page (the retry asks for nothing).

@MainActor
public final class PrefetchPaginator<Item: Identifiable & Sendable, Cursor: Equatable & Sendable> where Item.ID: Sendable {
    public struct Page: Sendable {
        public var items: [Item]
        /// `nil`: the last page.
        public var next: Cursor?
        public init(items: [Item], next: Cursor?) { self.items = items; self.next = next }
    }

    public enum Phase {
        case idle
        case loading
        case failed(any Error)
        /// The server sent no next cursor, or repeated the one we asked with.
        case exhausted
    }

    public typealias FetchPage = @Sendable (_ query: String, _ cursor: Cursor?) async throws -> Page

    public private(set) var items: [Item] = []
    public private(set) var phase: Phase = .idle
    public private(set) var query: String
    public let prefetchDistance: Int

    private let fetchPage: FetchPage
    private var cursor: Cursor?
    private var generation = 0
    private var seen = Set<Item.ID>()

    public init(query: String, prefetchDistance: Int = 5, fetchPage: @escaping FetchPage) {
        self.query = query
        self.prefetchDistance = prefetchDistance
        self.fetchPage = fetchPage
    }

    public var isLoading: Bool { if case .loading = phase { true } else { false } }
    public var isFailed: Bool { if case .failed = phase { true } else { false } }
    public var hasMore: Bool { if case .exhausted = phase { false } else { true } }

    /// `collectionView(_:willDisplay:forItemAt:)`; with an empty list, the first load.
    public func willDisplayItem(at index: Int) async {
        guard index >= items.count - prefetchDistance else { return }
        await loadNextPage()
    }

    public func loadNextPage() async {
        guard case .idle = phase else { return }
        let generation = self.generation
        let requested = cursor
        phase = .loading
        do {
            let page = try await fetchPage(query, requested)
            guard generation == self.generation else { return }
            for item in page.items where seen.insert(item.id).inserted {
                items.append(item)
            }
            if let next = page.next, next != requested {
                cursor = next
                phase = .idle
            } else {
                phase = .exhausted
            }
        } catch {
            guard generation == self.generation else { return }
            phase = error is CancellationError ? .idle : .failed(error)
        }
    }

    /// The error footer's "Try again".
    public func retry() async {
        guard isFailed else { return }
        await loadNextPage()
    }

    /// A new filter: start over; the next `willDisplay` (the empty list's first load) loads.
    public func reset(query: String) {
        self.query = query
        generation += 1
        items = []
        seen = []
        cursor = nil
        phase = .idle
    }
}

public struct PrefetchPost: Sendable, Identifiable, Hashable {
    public let id: Int
    public var body: String
    public init(id: Int, body: String) { self.id = id; self.body = body }
}

/// The screen that owns a paginator for the selected tag.
@MainActor
public final class PrefetchTagTimelineScreen {
    public let paginator: PrefetchPaginator<PrefetchPost, String>
    public init(tag: String, fetch: @escaping PrefetchPaginator<PrefetchPost, String>.FetchPage) {
        paginator = PrefetchPaginator(query: tag, prefetchDistance: 5, fetchPage: fetch)
    }
    public func tagSelected(_ tag: String) { paginator.reset(query: tag) }
    public func lastVisibleRowChanged(to index: Int) async { await paginator.willDisplayItem(at: index) }
    public func tryAgainTapped() async { await paginator.retry() }
}
