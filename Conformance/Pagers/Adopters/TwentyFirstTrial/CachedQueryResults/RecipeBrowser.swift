import Foundation

struct Recipe: Identifiable, Hashable, Sendable {
    let id: Int
    let title: String
}

/// Identifies one page request: which visit of which filter, and which page.
struct RecipePageTicket: Hashable, Sendable {
    let visit: Int
    let page: Int
}

/// The recipe browser's list state, with the filter chips at the top ("Quick", "Vegan", …).
///
/// Users flip between chips all the time, so every chip's rows are kept in memory: tapping a
/// chip shows what it had at once, and reloads its first page behind them (stale while
/// revalidate). The fresh first page replaces the cached rows when it arrives; from then on the
/// list pages as usual.
struct RecipeBrowserState {
    /// What a chip showed the last time its pages were accepted.
    struct CachedFilter {
        var recipes: [Recipe]
    }

    private(set) var filter: String
    private(set) var recipes: [Recipe] = []
    private(set) var hasMore = true
    private(set) var loading: RecipePageTicket?
    private(set) var showsError = false
    /// True while cached rows are on screen and the chip's first page is being fetched again.
    private(set) var isRevalidating = false

    private var visit = 0
    private var nextPage = 1
    private var visibleIDs: Set<Int> = []
    private var cache: [String: CachedFilter] = [:]

    init(filter: String) {
        self.filter = filter
    }

    var isLoading: Bool { loading != nil }

    // MARK: Triggers

    /// A chip was tapped. Shows its cached rows, if any, and loads its first page.
    mutating func selectFilter(_ newFilter: String) -> RecipePageTicket {
        filter = newFilter
        visit += 1             // every answer to an earlier visit is ignored from now on
        loading = nil
        showsError = false
        nextPage = 1
        hasMore = true         // unknown until the first page answers
        if let cached = cache[newFilter] {
            recipes = cached.recipes
            isRevalidating = true
        } else {
            recipes = []
            isRevalidating = false
        }
        visibleIDs = Set(recipes.map(\.id))
        return startLoading()
    }

    /// The last row became visible.
    mutating func reachedBottom() -> RecipePageTicket? {
        guard loading == nil, hasMore else { return nil }
        return startLoading()     // after a failure this asks for the failed page again
    }

    /// The error footer's Retry button.
    mutating func retryTapped() -> RecipePageTicket? {
        guard loading == nil, hasMore else { return nil }
        return startLoading()
    }

    // MARK: Answers

    mutating func pageArrived(_ page: [Recipe], hasMore more: Bool, for ticket: RecipePageTicket) {
        // Earlier visits (of this chip or another) and repeated callbacks change nothing, not
        // even the cache: only an answer we are waiting for may be shown later.
        guard ticket == loading else { return }
        loading = nil
        showsError = false
        if ticket.page == 1 {
            // The fresh first page replaces whatever the cache showed.
            recipes = []
            visibleIDs = []
            isRevalidating = false
        }
        for recipe in page where visibleIDs.insert(recipe.id).inserted {
            recipes.append(recipe)
        }
        hasMore = more
        nextPage = ticket.page + 1
        cache[filter] = CachedFilter(recipes: recipes)
    }

    mutating func pageFailed(isCancellation: Bool, for ticket: RecipePageTicket) {
        guard ticket == loading else { return }
        loading = nil
        // A cancelled request is not the user's problem; the next bottom hit asks again.
        showsError = !isCancellation
    }

    private mutating func startLoading() -> RecipePageTicket {
        let ticket = RecipePageTicket(visit: visit, page: nextPage)
        loading = ticket
        return ticket
    }
}
