import ConformanceKit

/// The loader the kit injects in place of yours: every load suspends here until the timeline
/// releases it with a page, a failure or a cancellation error.
///
/// Wire your subject's loader to it in your adapter's `init(source:)`:
///
/// ```swift
/// init(source: PageSource) async {
///     model = await FeedViewModel(loader: { query, page in
///         try await source.load(query: query, page: page)
///     })
/// }
/// ```
///
/// A failure arrives as a thrown ``PageFailure`` (`.timeout`, `.serverError`), a cancellation
/// as `CancellationError`. Cancelling the task that waits here is noticed but does not end the
/// wait: as on a real network, the completion can still run later, with data (P8).
public final class PageSource: Sendable {
    let scheduler: TimelineScheduler<PageLoad, PageResponse>

    init(scheduler: TimelineScheduler<PageLoad, PageResponse>) {
        self.scheduler = scheduler
    }

    /// Loads a page by number.
    public func load(query: String, page: Int) async throws -> PageResponse {
        try await scheduler.park(PageLoad(query: query, position: .page(page)))
    }

    /// Loads a page by cursor (`nil` for the first page).
    public func load(query: String, cursor: String?) async throws -> PageResponse {
        try await scheduler.park(PageLoad(query: query, position: .cursor(cursor)))
    }

    /// Loads a page by number and calls `completion` with the result, for completion-handler
    /// code. The request is registered before this returns.
    public func load(
        query: String, page: Int,
        completion: @escaping @Sendable (Result<PageResponse, any Error>) -> Void
    ) {
        scheduler.parkCallback(PageLoad(query: query, position: .page(page)), completion: completion)
    }

    /// Loads a page by cursor and calls `completion` with the result.
    public func load(
        query: String, cursor: String?,
        completion: @escaping @Sendable (Result<PageResponse, any Error>) -> Void
    ) {
        scheduler.parkCallback(
            PageLoad(query: query, position: .cursor(cursor)), completion: completion)
    }

    /// Loads a page by number and calls `completion` on the main actor, for `@MainActor` code
    /// whose completion handlers touch its state directly (no `@Sendable` wrapper needed).
    ///
    /// ```swift
    /// source.load(query: query, page: page, onMainActor: { self.handle($0) })   // in @MainActor code
    /// ```
    @MainActor
    public func load(
        query: String, page: Int,
        onMainActor completion: @escaping @MainActor (Result<PageResponse, any Error>) -> Void
    ) {
        scheduler.parkCallback(PageLoad(query: query, position: .page(page))) { result in
            Task { @MainActor in completion(result) }
        }
    }

    /// Loads a page by cursor and calls `completion` on the main actor (see
    /// ``load(query:page:onMainActor:)``).
    @MainActor
    public func load(
        query: String, cursor: String?,
        onMainActor completion: @escaping @MainActor (Result<PageResponse, any Error>) -> Void
    ) {
        scheduler.parkCallback(PageLoad(query: query, position: .cursor(cursor))) { result in
            Task { @MainActor in completion(result) }
        }
    }

    /// Waits in a completion-handler call: `start` receives a `done` closure to pass to your
    /// subject's completion handler. Use it in an adapter whose trigger should wait for the
    /// subject's own completion callback.
    ///
    /// ```swift
    /// func bottomReached() async {
    ///     await source.waitForCallback { done in model.loadMore(completion: done) }
    /// }
    /// ```
    public func waitForCallback(_ start: (@escaping @Sendable () -> Void) -> Void) async {
        let token = TimelineScheduler<PageLoad, PageResponse>.CallbackToken()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start {
                self.scheduler.callbackFired(token)
                continuation.resume()
            }
            self.scheduler.callbackWaitBegan(token: token)
        }
    }
}
