import ConformanceKit

/// Adapts real asynchronous pager code (an `@MainActor` view model, an actor, a
/// completion-handler class) so the kit can run every P contract against it, with its real
/// loading code, behind a controlled ``PageSource``.
///
/// ```swift
/// struct FeedViewModelAdapter: AsyncPagerAdapter {
///     let model: FeedViewModel                      // @MainActor @Observable
///
///     init(source: PageSource) async {
///         model = await FeedViewModel(loader: { try await source.load(query: $0, page: $1) })
///     }
///     func bottomReached() async { await model.loadNextPage() }
///     func changeQuery(to query: String) async { await model.search(query) }
///     func snapshot() async -> PagerSnapshot<Int> {
///         await MainActor.run {
///             PagerSnapshot(visibleIDs: model.itemIDs, isLoading: model.isLoading)
///         }
///     }
/// }
/// ```
///
/// ## Conforming to AsyncPagerAdapter
///
/// Each trigger must **await the work it starts**: call the async method your view calls
/// (`await model.loadNextPage()`), not a wrapper that spawns a `Task` and returns. The kit runs
/// each trigger in a task of its own and knows, by evidence rather than by time, when the
/// trigger is blocked on a load it has not answered; a request made by work a returned trigger
/// left behind is reported as an adapter error. Loads must go through the `source` the kit
/// passes to `init(source:)`. The laws checked are those of ``PagerModelAdapter``.
public protocol AsyncPagerAdapter: ConformanceAdapter, Sendable {
    /// Your items' ID type.
    associatedtype ItemID: Hashable & Sendable = Int

    /// What the pager supports.
    static var capabilities: PagerCapabilities { get }

    /// Creates your subject on the kit's first query, wired to `source`, with nothing loaded.
    init(source: PageSource) async

    /// The user reached the bottom (or the first load on appear).
    func bottomReached() async throws
    /// The filter or search text changed.
    func changeQuery(to query: String) async throws
    /// Pull-to-refresh. Declare `.refresh` when implemented.
    func refresh() async throws
    /// Retry after an error. By default the same as ``bottomReached()``.
    func retry() async throws
    /// Load pages until the screen is full. Declare `.fillScreen` when implemented.
    func fillScreen() async throws
    /// The list appeared (`.task`, `onAppear`, `viewDidLoad`). Declare `.appear` when your first
    /// load comes from it; by default the same as ``bottomReached()``.
    func appear() async throws
    /// What the user sees now.
    func snapshot() async -> PagerSnapshot<ItemID>
    /// The ID your subject gives the item built from `row`.
    static func itemID(for row: PageRow) -> ItemID
    /// Returns once the work your subject's completion handlers handed to a `DispatchQueue` of
    /// its own has run: for a completion that decodes or maps the page on a private queue and
    /// only then hops to the main actor, where the kit's task-local tags do not reach.
    ///
    /// The kit calls it after every completion handler returns, before it drains the main queue
    /// and reads the next snapshot. On a serial queue an empty block is a barrier:
    ///
    /// ```swift
    /// func waitForPendingWork() async {
    ///     await withCheckedContinuation { done in
    ///         TeamDirectoryController.processingQueue.async { done.resume() }
    ///     }
    /// }
    /// ```
    ///
    /// Defaults to returning at once (async/await loads and completions on the main queue or
    /// the main actor need nothing).
    func waitForPendingWork() async
}

extension AsyncPagerAdapter {
    /// Page numbers, async/await loads, no extra triggers.
    public static var capabilities: PagerCapabilities { PagerCapabilities() }

    /// Throws ``PagerAdapterError/unsupportedTrigger(_:)``.
    public func refresh() async throws { throw PagerAdapterError.unsupportedTrigger("refresh") }

    /// The same as ``bottomReached()``.
    public func retry() async throws { try await bottomReached() }

    /// Throws ``PagerAdapterError/unsupportedTrigger(_:)``.
    public func fillScreen() async throws {
        throw PagerAdapterError.unsupportedTrigger("fillScreen")
    }

    /// The same as ``bottomReached()``.
    public func appear() async throws { try await bottomReached() }

    /// No work of the subject's own runs outside Swift concurrency and the main queue.
    public func waitForPendingWork() async {}
}

extension AsyncPagerAdapter where ItemID == Int {
    /// The row's own ID.
    public static func itemID(for row: PageRow) -> Int { row.id }
}
