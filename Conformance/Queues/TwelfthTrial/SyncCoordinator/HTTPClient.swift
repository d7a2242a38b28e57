import Foundation

/// The parts of a `URLRequest` the sync layer needs; the networking module builds the real one.
struct HTTPRequest: Sendable, Equatable {
    var method: String
    var path: String
    var headers: [String: String] = [:]
    var body: Data?
}

/// The app's networking layer, as the sync layer sees it. `completion` is called exactly once,
/// on any thread.
protocol HTTPClient: Sendable {
    func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<(status: Int, body: Data), any Error>) -> Void)
}
