import Foundation

/// The server's answer to one request, when an answer arrived at all.
public struct WriteResponse: Hashable, Sendable {
    /// The HTTP status.
    public var statusCode: Int
    /// The body: for a success, `{"id":1,"attempts":2,"record_count":1}` as the seed's server.
    public var body: Data

    /// Creates a response.
    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }

    /// Whether the status is 2xx: the only answer that may complete a task.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }
}
