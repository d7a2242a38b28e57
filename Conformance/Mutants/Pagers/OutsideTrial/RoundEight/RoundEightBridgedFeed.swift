// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only. Its bug (by its
// author's choice): `catch is CancellationError { return }` takes every cancellation for a newer
// search's, so a cancellation of the live request leaves loading set and swallows every later
// bottom trigger and retry (P6).

import Foundation
import Observation

struct RoundEightPhoto: Identifiable, Hashable, Sendable {
    let id: Int
    var caption: String
}

struct RoundEightPhotoPage: Sendable {
    var photos: [RoundEightPhoto]
    var hasMore: Bool
}

/// A request handle from the legacy networking layer.
protocol RoundEightRequestToken: Sendable {
    func cancel()
}

/// The legacy client (pre-async/await). Calls `completion` exactly once; after `cancel()` it
/// calls it with a cancellation error.
protocol RoundEightLegacyPhotoClient: Sendable {
    @discardableResult
    func photos(
        query: String, page: Int,
        completion: @escaping @Sendable (Result<RoundEightPhotoPage, Error>) -> Void
    ) -> any RoundEightRequestToken
}

/// What the feed needs from the network (a seam for previews and tests).
protocol RoundEightPhotoFetching: Sendable {
    func photos(query: String, page: Int) async throws -> RoundEightPhotoPage
}

/// Bridges the legacy client to async/await, cancelling the request when the task is cancelled.
struct RoundEightPhotoAPI: RoundEightPhotoFetching {
    let client: any RoundEightLegacyPhotoClient

    func photos(query: String, page: Int) async throws -> RoundEightPhotoPage {
        let holder = RoundEightTokenHolder()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let token = client.photos(query: query, page: page) { result in
                    continuation.resume(with: result)
                }
                holder.store(token)
            }
        } onCancel: {
            holder.cancel()
        }
    }
}

/// Holds the token for the cancellation handler, which can run before the request is started.
final class RoundEightTokenHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var token: (any RoundEightRequestToken)?
    private var cancelled = false

    func store(_ token: any RoundEightRequestToken) {
        lock.lock()
        let alreadyCancelled = cancelled
        self.token = token
        lock.unlock()
        if alreadyCancelled { token.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let token = self.token
        lock.unlock()
        token?.cancel()
    }
}

/// Photo search grid.
@MainActor
@Observable
final class RoundEightBridgedFeed {
    private(set) var photos: [RoundEightPhoto] = []
    private(set) var isLoading = false
    private(set) var hasMore = true
    private(set) var errorMessage: String?
    private(set) var query: String

    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var seenIDs: Set<Int> = []
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var replaceOnNextPage = false
    @ObservationIgnored private let api: any RoundEightPhotoFetching

    init(api: any RoundEightPhotoFetching, query: String = "") {
        self.api = api
        self.query = query
    }

    func loadNextPage() async {
        guard !isLoading, hasMore else { return }
        isLoading = true
        errorMessage = nil
        let generation = self.generation
        let page = nextPage
        let query = self.query
        let task = Task { await self.performLoad(query: query, page: page, generation: generation) }
        loadTask = task
        await task.value
    }

    func retry() async {
        await loadNextPage()
    }

    func search(_ text: String) async {
        guard text != query else { return }
        query = text
        photos = []
        seenIDs = []
        replaceOnNextPage = false
        await startOver()
    }

    func refresh() async {
        replaceOnNextPage = true
        await startOver()
    }

    private func startOver() async {
        loadTask?.cancel()
        loadTask = nil
        generation += 1
        nextPage = 1
        hasMore = true
        isLoading = false
        errorMessage = nil
        await loadNextPage()
    }

    private func performLoad(query: String, page: Int, generation: Int) async {
        do {
            let result = try await api.photos(query: query, page: page)
            guard generation == self.generation else { return }
            if replaceOnNextPage {
                photos = []
                seenIDs = []
                replaceOnNextPage = false
            }
            for photo in result.photos where seenIDs.insert(photo.id).inserted {
                photos.append(photo)
            }
            nextPage = page + 1
            hasMore = result.hasMore
            isLoading = false
        } catch is CancellationError {
            // Cancelled because the user searched or refreshed; the new load owns the state.
            return
        } catch {
            guard generation == self.generation else { return }
            errorMessage = "Couldn't load photos."
            isLoading = false
        }
    }
}
