import Foundation

public struct DirectoryEntry: Identifiable, Sendable, Equatable {
    public let id: String
    public let displayName: String
    public init(id: String, displayName: String = "") {
        self.id = id
        self.displayName = displayName
    }
}

public struct DirectoryListing: Sendable, Equatable {
    public let entries: [DirectoryEntry]
    public let nextCursor: String?
    public let hasMore: Bool
    public init(entries: [DirectoryEntry], nextCursor: String?, hasMore: Bool) {
        self.entries = entries
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// Cursor-paged directory list with pull-to-refresh and no query.
///
/// Pull-to-refresh keeps the current rows on screen while the first page is
/// re-requested (no cursor); when that answer arrives it *replaces* the rows.
/// Everything still in flight from before the refresh is ignored.
/// A "more" answer whose next cursor is missing or equals the cursor that was
/// sent sets `isStalled` and stops automatic loading (`loadMore()`);
/// `retry()` or `refresh()` start again.
@MainActor
public final class DirectoryPager {
    public typealias Loader = @Sendable (_ cursor: String?) async throws -> DirectoryListing

    public private(set) var entries: [DirectoryEntry] = []
    public private(set) var isLoading = false
    public private(set) var isRefreshing = false
    public private(set) var hasMore = true
    public private(set) var error: (any Error)?
    /// Set when the server did not advance the cursor; auto-loading stops.
    public private(set) var isStalled = false
    /// Cursor the next request will send (nil = first page).
    public private(set) var cursor: String?

    public var visibleIDs: [String] { entries.map(\.id) }
    public var errorMessage: String? { error.map { _ in "Couldn't load the directory." } }

    public enum ProtocolError: Error, Equatable {
        case cursorDidNotAdvance(String?)
    }

    private let loader: Loader
    private var epoch = 0
    /// True after a refresh until its first page is accepted: the next accepted
    /// page replaces the rows instead of appending.
    private var replaceOnNextPage = false

    public init(loader: @escaping Loader) {
        self.loader = loader
    }

    public func loadMore() async {
        guard !isStalled else { return }
        await fetch()
    }

    public func retry() async {
        guard error != nil || isStalled else { return }
        isStalled = false
        await fetch()
    }

    public func refresh() async {
        epoch += 1
        cursor = nil
        hasMore = true
        error = nil
        isStalled = false
        isLoading = false
        replaceOnNextPage = true
        isRefreshing = true
        await fetch()
    }

    private func fetch() async {
        guard !isLoading, hasMore else { return }
        let myEpoch = epoch
        let sent = cursor
        isLoading = true
        error = nil

        do {
            let listing = try await loader(sent)
            guard myEpoch == epoch else { return }
            isLoading = false
            isRefreshing = false
            accept(listing, sentCursor: sent)
        } catch {
            guard myEpoch == epoch else { return }
            isLoading = false
            isRefreshing = false
            if !(error is CancellationError) {
                self.error = error
            }
        }
    }

    private func accept(_ listing: DirectoryListing, sentCursor: String?) {
        if listing.hasMore && (listing.nextCursor == nil || listing.nextCursor == sentCursor) {
            isStalled = true
            error = ProtocolError.cursorDidNotAdvance(sentCursor)
            return
        }

        var base = replaceOnNextPage ? [] : entries
        replaceOnNextPage = false
        var known = Set(base.map(\.id))
        for entry in listing.entries where known.insert(entry.id).inserted {
            base.append(entry)
        }
        entries = base
        cursor = listing.nextCursor
        hasMore = listing.hasMore
    }
}
