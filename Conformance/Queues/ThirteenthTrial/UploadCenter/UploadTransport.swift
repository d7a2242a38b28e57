import Foundation

public struct UploadRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data
}

public struct UploadResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The app's networking layer (a URLSession data task in production). The completion is called
/// exactly once, on any thread: `.failure` when no response arrived (timeout, connection lost).
public protocol UploadTransport: Sendable {
    func send(_ request: UploadRequest, completion: @escaping @Sendable (Result<UploadResponse, any Error>) -> Void)
}
