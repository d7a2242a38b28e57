import Foundation

/// A single article row as the list shows it.
struct Article: Identifiable, Hashable, Sendable {
    let id: String
    var title: String
    var summary: String?
    var publishedAt: Date?
}

/// One page of search results from the articles endpoint.
///
/// `nextCursor` is `nil` when the server has nothing more for this query.
typealias ArticlePage = (items: [Article], nextCursor: String?)

/// The cursor-paginated articles API.
///
/// Production code backs this with `URLSession`; tests inject a fake.
protocol ArticleFetching: Sendable {
    /// Fetches the page that starts at `cursor` (`nil` for the first page of `query`).
    func fetch(query: String, cursor: String?) async throws -> ArticlePage
}

/// Errors the list treats as "the server broke its paging contract".
enum ArticlePagingError: Error, Equatable {
    /// The server handed back a cursor we already followed for this query.
    case repeatedCursor(String)
    /// Several pages in a row added nothing new to the list.
    case noProgress
}
