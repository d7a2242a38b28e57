import Foundation

/// A transport-agnostic HTTP request (the app's networking layer turns it into a URLRequest).
public struct MutationHTTPRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data

    public init(method: String, path: String, headers: [String: String], body: Data) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

public struct MutationHTTPResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The app's HTTP client. Throws for transport failures (no response: timeout, connection lost),
/// `CancellationError` when the calling task was cancelled.
public protocol MutationHTTPClient: Sendable {
    func perform(_ request: MutationHTTPRequest) async throws -> MutationHTTPResponse
}
