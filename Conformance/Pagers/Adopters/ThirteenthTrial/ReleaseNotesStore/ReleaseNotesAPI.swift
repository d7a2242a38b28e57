import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One release note as the backend sends it.
struct ReleaseNote: Identifiable, Equatable, Hashable, Sendable, Decodable {
    let id: String
    let version: String
    let title: String
    let publishedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, version, title
        case publishedAt = "published_at"
    }
}

/// `GET /v2/release-notes?q=…&page=…&per_page=…`
/// `{ "release_notes": [...], "page": 2, "per_page": 20, "has_next_page": true }`
struct ReleaseNotesPage: Equatable, Sendable, Decodable {
    let releaseNotes: [ReleaseNote]
    let page: Int
    let perPage: Int
    let hasNextPage: Bool

    enum CodingKeys: String, CodingKey {
        case releaseNotes = "release_notes"
        case page
        case perPage = "per_page"
        case hasNextPage = "has_next_page"
    }
}

enum ReleaseNotesAPIError: Error, Equatable {
    case httpStatus(Int)
}

protocol ReleaseNotesAPI: Sendable {
    /// Pages are 1-based.
    func releaseNotes(search: String, page: Int, perPage: Int) async throws -> ReleaseNotesPage
}

struct LiveReleaseNotesAPI: ReleaseNotesAPI {
    var baseURL: URL
    var session: URLSession = .shared

    func releaseNotes(search: String, page: Int, perPage: Int) async throws -> ReleaseNotesPage {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("v2/release-notes"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "q", value: search),
            URLQueryItem(name: "page", value: String(page)),
            URLQueryItem(name: "per_page", value: String(perPage)),
        ]
        let (data, response) = try await session.data(for: URLRequest(url: components.url!))
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw ReleaseNotesAPIError.httpStatus(http.statusCode)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ReleaseNotesPage.self, from: data)
    }
}
