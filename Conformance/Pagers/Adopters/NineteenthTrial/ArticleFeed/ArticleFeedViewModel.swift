import Foundation
import Observation

/// The "Articles" tab: a topic picker over an endless list.
@MainActor
@Observable
final class ArticleFeedViewModel {
    enum Footer: Equatable {
        case idle        // more to load
        case loading     // a page is on its way
        case failed      // "Couldn't load more. Retry"
        case end         // no more articles
    }

    /// How far back a page can repeat articles. Offset pagination drifts when articles are
    /// published at the top while the user scrolls: page n + 1 then starts with the last few
    /// articles of page n. A repeat can therefore only be one of the rows we appended last, so
    /// we compare against the tail (two pages) instead of hashing the whole feed on every page:
    /// after a long session the feed holds thousands of rows, and this runs on the main actor.
    static let driftWindow = 2 * ArticlePageLoader.pageSize

    private(set) var topic: String
    private(set) var articles: [FeedArticle] = []
    private(set) var footer: Footer = .idle

    @ObservationIgnored private let loader: ArticlePageLoader
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var nextPage = 1

    init(topic: String, loader: ArticlePageLoader) {
        self.topic = topic
        self.loader = loader
    }

    var articleIDs: [Int] { articles.map(\.id) }

    /// `.onAppear` of the last rows and the first load.
    func loadMore() async {
        guard footer == .idle else { return }
        await loadPage()
    }

    /// The footer's Retry button.
    func retry() async {
        guard footer == .failed else { return }
        await loadPage()
    }

    /// The topic picker. The list empties at once; the next `loadMore()` loads page 1. A load
    /// still running for the old topic finishes in the background and is dropped.
    func selectTopic(_ newTopic: String) {
        guard newTopic != topic else { return }
        topic = newTopic
        generation += 1
        articles = []
        nextPage = 1
        footer = .idle
    }

    private func loadPage() async {
        let requestGeneration = generation
        let page = nextPage
        footer = .loading
        do {
            let result = try await loader.page(topic: topic, number: page)
            guard requestGeneration == generation else { return }
            articles.append(contentsOf: Self.unseen(result.articles, after: articles))
            nextPage = page + 1
            footer = result.hasMore ? .idle : .end
        } catch {
            guard requestGeneration == generation else { return }
            // A cancelled request (the system tore it down) is not worth a Retry button: the next
            // `loadMore()` asks for the same page again.
            footer = error == .cancelled ? .idle : .failed
        }
    }

    /// The incoming articles that are not on screen yet, in the server's order (repeats inside
    /// the page are dropped too).
    static func unseen(_ incoming: [FeedArticle], after existing: [FeedArticle]) -> [FeedArticle] {
        var seen = Set(existing.suffix(driftWindow).map(\.id))
        return incoming.filter { seen.insert($0.id).inserted }
    }
}
