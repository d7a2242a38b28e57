/// What a pager adapter declares about its pager, so the kit runs only the contracts that
/// apply and skips the rest with a reason.
///
/// State the pager reports (loading, error, …) is not declared here: it is read from the
/// snapshot, where `nil` means "not reported".
public struct PagerCapabilities: Hashable, Sendable {
    /// How the pager asks for the next page.
    public enum Pagination: String, Hashable, Sendable {
        /// 1-based page numbers.
        case pageNumbers
        /// Opaque cursors returned by the server (the first request carries none).
        case cursors
    }

    /// Triggers beyond bottom reached, query changed and retry, which every pager has.
    public struct Triggers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Pull-to-refresh (or a page restore) that reloads from the first page.
        public static let refresh = Triggers(rawValue: 1 << 0)
        /// A trigger that loads several pages in a row to fill the screen.
        public static let fillScreen = Triggers(rawValue: 1 << 1)
        /// The first load comes from an "appear" event (`onAppear`, `viewDidLoad`), not from
        /// the bottom trigger: the kit calls `appear()` for each first load of the list.
        public static let appear = Triggers(rawValue: 1 << 2)
    }

    /// How an async subject's loads complete (the async level only).
    public enum Loader: String, Hashable, Sendable {
        /// `try await source.load(…)`: a load resumes exactly once.
        case asyncAwait
        /// `source.load(…, completion:)`, always called back later (as URLSession does); a
        /// completion can run twice (P3 applies).
        case completionHandler
        /// `source.load(…, completion:)` whose layer may call back synchronously, inside the
        /// call (an in-memory cache): the "already available" delivery mode then does so.
        case completionHandlerMayCallBackSynchronously
    }

    /// Page numbers or cursors.
    public var pagination: Pagination
    /// How loads complete at the async level.
    public var loader: Loader
    /// Extra triggers the adapter implements.
    public var triggers: Triggers
    /// How many accepted pages in a row may add no visible item before the pager must stop
    /// loading automatically (P12). Three by default.
    public var noProgressLimit: Int
    /// Whether the list has a query change at all (a filter, a search). A list with refresh
    /// only (a directory) declares `false`: the contracts about an earlier query's answers
    /// (P4, P5, P8) are then reported as not applicable, with that reason, and the others use
    /// a refresh where they need a new generation.
    public var changesQuery: Bool
    /// Whether the pager stops automatic loading after ``noProgressLimit`` accepted pages in a
    /// row that add nothing (P12, the default). `false` declares the other conforming shape: a
    /// trigger loads at most one page that adds nothing and then waits for the user's next
    /// trigger, never chaining by itself; P12 then checks exactly that.
    public var stopsOnNoProgress: Bool
    /// Whether the pager treats a cursor that repeats an earlier cursor of the query as a
    /// protocol error (P10's recommended part, the default). `false` skips that part, with the
    /// reason in the report; the required same-cursor check still runs.
    public var detectsCursorCycles: Bool
    /// The query text for a cleared search field (often `""`), if the pager has such a state:
    /// one it shows an empty list or a hint for, and may load nothing for. Your adapter passes
    /// it on to the pager unchanged. P4 then clears the search while a page is on its way, and
    /// that page's late answer must change nothing (a pager that returns early for a query too
    /// short to search, before it starts a new generation, shows the earlier query's page under
    /// the cleared field). `nil`, the default: the kit sends only its own query names.
    public var clearedQuery: String?

    /// Creates capabilities.
    /// - Parameters:
    ///   - pagination: Page numbers (default) or cursors.
    ///   - triggers: Extra triggers: `.refresh` (pull to refresh), `.fillScreen` (loads pages
    ///     until the screen is full) and `.appear` (the first load comes from an appear event).
    ///   - noProgressLimit: The P12 bound, 3 by default.
    ///   - loader: Async/await (default) or completion handlers, for the async level.
    ///   - changesQuery: `false` for a list without any query change (refresh only).
    ///   - stopsOnNoProgress: `false` for a pager that waits for the next trigger after a page
    ///     that added nothing instead of counting such pages (P12).
    ///   - detectsCursorCycles: `false` for a cursor pager without P10's cycle check.
    ///   - clearedQuery: The query text for a cleared search field, if the pager has one (P4).
    public init(
        pagination: Pagination = .pageNumbers, triggers: Triggers = [], noProgressLimit: Int = 3,
        loader: Loader = .asyncAwait, changesQuery: Bool = true, stopsOnNoProgress: Bool = true,
        detectsCursorCycles: Bool = true, clearedQuery: String? = nil
    ) {
        precondition(noProgressLimit >= 1, "noProgressLimit must be at least 1 page (P12)")
        self.pagination = pagination
        self.loader = loader
        self.triggers = triggers
        self.noProgressLimit = noProgressLimit
        self.changesQuery = changesQuery
        self.stopsOnNoProgress = stopsOnNoProgress
        self.detectsCursorCycles = detectsCursorCycles
        self.clearedQuery = clearedQuery
    }
}
