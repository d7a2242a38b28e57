import Foundation

/// What the outbox asks the network layer to send: one comment action, with the idempotency
/// key the server deduplicates on (sent as the `Idempotency-Key` header) and the exact body
/// bytes the composer produced.
public struct BuggyCommentRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var idempotencyKey: String
    public var body: Data

    public init(method: String, path: String, idempotencyKey: String, body: Data) {
        self.method = method
        self.path = path
        self.idempotencyKey = idempotencyKey
        self.body = body
    }
}

/// The server's answer. The outbox reads the status only: a response body may quote what the
/// user wrote, so it is never stored or logged.
public struct BuggyCommentResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The app's network layer (a `URLSession` wrapper in the app, a fake in tests). A thrown error
/// means the outcome is unknown: the request may or may not have reached the server.
public protocol BuggyCommentTransport: Sendable {
    func send(_ request: BuggyCommentRequest) async throws -> BuggyCommentResponse
}

/// What the user did: a new comment under a post, or an edit of one of their comments. The body
/// is the JSON the composer encoded, kept byte for byte.
public enum BuggyCommentAction: Sendable, Equatable {
    case postComment(postID: String, body: Data)
    case editComment(postID: String, commentID: String, body: Data)

    /// The post the action belongs to: the outbox sends at most one request per post at a time.
    public var postID: String {
        switch self {
        case .postComment(let postID, _), .editComment(let postID, _, _): postID
        }
    }

    public var body: Data {
        switch self {
        case .postComment(_, let body), .editComment(_, _, let body): body
        }
    }

    var method: String {
        switch self {
        case .postComment: "POST"
        case .editComment: "PATCH"
        }
    }

    var path: String {
        switch self {
        case .postComment(let postID, _): "/v2/posts/\(postID)/comments"
        case .editComment(let postID, let commentID, _): "/v2/posts/\(postID)/comments/\(commentID)"
        }
    }
}
