import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Transaction: Identifiable, Equatable, Hashable, Sendable, Decodable {
    let id: String
    let merchant: String
    let amountMinor: Int
    let currencyCode: String
    let bookedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, merchant
        case amountMinor = "amount_minor"
        case currencyCode = "currency"
        case bookedAt = "booked_at"
    }
}

/// `GET /v1/transactions?search=…&starting_after=…&limit=…`
/// `{ "data": [...], "has_more": true, "next_cursor": "…" }`
struct TransactionsPage: Equatable, Sendable, Decodable {
    let transactions: [Transaction]
    let hasMore: Bool
    let nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case transactions = "data"
        case hasMore = "has_more"
        case nextCursor = "next_cursor"
    }
}

enum TransactionsServiceError: Error, Equatable {
    case httpStatus(Int)
    case emptyBody
}

protocol TransactionsService: Sendable {
    /// Loads one page. `cursor == nil` asks for the first page. The completion is always
    /// called on the main queue.
    func fetchTransactions(
        search: String, cursor: String?, limit: Int,
        completion: @escaping @MainActor @Sendable (Result<TransactionsPage, any Error>) -> Void)
}

struct URLSessionTransactionsService: TransactionsService {
    var baseURL: URL
    var session: URLSession = .shared

    func fetchTransactions(
        search: String, cursor: String?, limit: Int,
        completion: @escaping @MainActor @Sendable (Result<TransactionsPage, any Error>) -> Void
    ) {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("v1/transactions"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "search", value: search),
            URLQueryItem(name: "limit", value: String(limit)),
        ] + (cursor.map { [URLQueryItem(name: "starting_after", value: $0)] } ?? [])

        let task = session.dataTask(with: URLRequest(url: components.url!)) { data, response, error in
            let result: Result<TransactionsPage, any Error>
            if let error {
                result = .failure(error)
            } else if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                result = .failure(TransactionsServiceError.httpStatus(http.statusCode))
            } else if let data {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                result = Result { try decoder.decode(TransactionsPage.self, from: data) }
            } else {
                result = .failure(TransactionsServiceError.emptyBody)
            }
            DispatchQueue.main.async {
                completion(result)
            }
        }
        task.resume()
    }
}
