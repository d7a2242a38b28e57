import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif

struct FeedArticle: Identifiable, Hashable, Sendable {
    let id: Int
    var headline: String
}

struct FeedArticlePage: Sendable {
    let articles: [FeedArticle]
    let hasMore: Bool
}

enum ArticleLoadError: Error, Equatable, Sendable {
    case cancelled
    case unavailable(String)
}

/// Talks to `GET /topics/{topic}/articles?page=n&per_page=25` and decodes off the main actor.
/// The view model awaits it; it keeps no list state of its own.
actor ArticlePageLoader {
    typealias Fetch = @Sendable (_ topic: String, _ page: Int) async throws -> FeedArticlePage

    /// The server's page size (`per_page`).
    static let pageSize = 25

    private let fetch: Fetch
    private(set) var requestsMade = 0

    init(fetch: @escaping Fetch) {
        self.fetch = fetch
    }

    /// A live instance over URLSession.
    static func live(baseURL: URL, session: URLSession = .shared) -> ArticlePageLoader {
        ArticlePageLoader { topic, page in
            var components = URLComponents(
                url: baseURL.appendingPathComponent("topics/\(topic)/articles"),
                resolvingAgainstBaseURL: false)
            components?.queryItems = [
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "per_page", value: String(pageSize)),
            ]
            guard let url = components?.url else { throw URLError(.badURL) }
            let (data, _) = try await session.data(from: url)
            let decoded = try JSONDecoder().decode(FeedArticlePageDTO.self, from: data)
            return FeedArticlePage(
                articles: decoded.items.map { FeedArticle(id: $0.id, headline: $0.headline) },
                hasMore: decoded.hasMore)
        }
    }

    func page(topic: String, number: Int) async throws(ArticleLoadError) -> FeedArticlePage {
        requestsMade += 1
        do {
            return try await fetch(topic, number)
        } catch is CancellationError {
            throw .cancelled
        } catch let error as URLError where error.code == .cancelled {
            throw .cancelled
        } catch {
            throw .unavailable(String(describing: error))
        }
    }
}

private struct FeedArticlePageDTO: Decodable {
    struct Item: Decodable {
        let id: Int
        let headline: String
    }
    let items: [Item]
    let hasMore: Bool
}
