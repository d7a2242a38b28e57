// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only. Its bug (by its
// author's choice): the load trusts cancellation and applies whatever its request returns, so a
// cancelled request's late page, failure or CancellationError lands on the new query (P4, P5, P8,
// P11). The explorer found a second (seed 7): after a failed refresh, the next bottom trigger
// loads page 1 and appends it instead of replacing the list (P11).

import Foundation
import Observation

// MARK: - Models & service

struct RoundEightPost: Identifiable, Hashable, Sendable {
    let id: Int
    var title: String
}

struct RoundEightFeedPage: Sendable {
    var posts: [RoundEightPost]
    var hasMore: Bool
}

protocol RoundEightFeedService: Sendable {
    func posts(matching query: String, page: Int) async throws -> RoundEightFeedPage
}

// MARK: - Feed

/// Home feed driven by user intents. The view sends intents; one long-lived loop, started in
/// `init`, reads them in order and decides what to load.
@MainActor
@Observable
final class RoundEightIntentStreamFeed {
    enum Intent: Sendable, Equatable {
        case appear
        case reachedBottom
        case retry
        case search(String)
        case refresh
    }

    // View state
    private(set) var posts: [RoundEightPost] = []
    private(set) var isLoading = false
    private(set) var hasMore = true
    private(set) var errorMessage: String?
    private(set) var query: String

    // Paging
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var seenIDs: Set<Int> = []
    @ObservationIgnored private var loadTask: Task<Void, Never>?

    // Intents
    private typealias Envelope = (intent: Intent, started: CheckedContinuation<Task<Void, Never>?, Never>)
    @ObservationIgnored private let intents: AsyncStream<Envelope>
    @ObservationIgnored private let intentSink: AsyncStream<Envelope>.Continuation
    @ObservationIgnored private var loop: Task<Void, Never>?

    @ObservationIgnored private let service: any RoundEightFeedService

    init(service: any RoundEightFeedService, initialQuery: String = "") {
        self.service = service
        self.query = initialQuery
        (intents, intentSink) = AsyncStream<Envelope>.makeStream()
        start()
    }

    isolated deinit {
        intentSink.finish()
        loop?.cancel()
        loadTask?.cancel()
    }

    private func start() {
        guard loop == nil else { return }
        let intents = self.intents
        loop = Task { [weak self] in
            for await envelope in intents {
                guard let self else {
                    envelope.started.resume(returning: nil)
                    return
                }
                envelope.started.resume(returning: self.handle(envelope.intent))
            }
        }
    }

    /// Sends an intent and waits until the work it started (if any) is done.
    /// The view calls it from `.task`/`.onAppear`/`.refreshable` and may ignore the wait.
    func send(_ intent: Intent) async {
        let work = await withCheckedContinuation { (started: CheckedContinuation<Task<Void, Never>?, Never>) in
            intentSink.yield((intent, started))
        }
        await work?.value
    }

    // MARK: Reducer

    private func handle(_ intent: Intent) -> Task<Void, Never>? {
        switch intent {
        case .appear:
            guard posts.isEmpty, loadTask == nil else { return nil }
            return loadPage(1)

        case .reachedBottom, .retry:
            guard !isLoading, hasMore else { return nil }
            return loadPage(nextPage)

        case .search(let text):
            guard text != query else { return nil }
            query = text
            loadTask?.cancel()
            posts = []
            seenIDs = []
            nextPage = 1
            hasMore = true
            errorMessage = nil
            return loadPage(1)

        case .refresh:
            loadTask?.cancel()
            nextPage = 1
            hasMore = true
            errorMessage = nil
            return loadPage(1, replacing: true)
        }
    }

    private func loadPage(_ page: Int, replacing: Bool = false) -> Task<Void, Never> {
        isLoading = true
        errorMessage = nil
        let query = self.query
        let service = self.service
        let task = Task { [weak self] in
            do {
                let result = try await service.posts(matching: query, page: page)
                // The old task is cancelled when the query changes, so whatever comes back here
                // belongs to the current list.
                guard let self else { return }
                if replacing {
                    self.posts = []
                    self.seenIDs = []
                }
                for post in result.posts where self.seenIDs.insert(post.id).inserted {
                    self.posts.append(post)
                }
                self.nextPage = page + 1
                self.hasMore = result.hasMore
            } catch is CancellationError {
                // Superseded; nothing to show.
            } catch {
                self?.errorMessage = "Couldn't load posts. Pull to retry."
            }
            self?.isLoading = false
        }
        loadTask = task
        return task
    }
}
