import Foundation

/// One HTTP request the outbox asks the networking layer to perform.
public struct CommentOutgoingRequest: Sendable, Equatable {
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

    public static let idempotencyKeyHeader = "Idempotency-Key"

    public var idempotencyKey: String? { headers[Self.idempotencyKeyHeader] }
}

/// What came back from the server.
public struct CommentResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The networking layer (URLSession-backed in the app). Throws for transport errors:
/// timeouts, lost connections, cancelled data tasks. Any HTTP status is a `CommentResponse`.
public protocol CommentOutboxTransport: Sendable {
    func send(_ request: CommentOutgoingRequest) async throws -> CommentResponse
}

/// What the UI asks the outbox to deliver.
public enum CommentOutboxAction: Sendable, Equatable {
    /// `payload` is the JSON the API expects, encoded once by the caller.
    case postComment(postID: String, payload: Data)
    case editComment(postID: String, commentID: String, payload: Data)
    case addReaction(postID: String, reaction: String)
    case removeReaction(postID: String, reaction: String)

    public var postID: String {
        switch self {
        case .postComment(let p, _), .editComment(let p, _, _), .addReaction(let p, _), .removeReaction(let p, _):
            return p
        }
    }
}

public enum CommentEnqueueOutcome: Sendable, Equatable {
    /// Stored in the journal; will be delivered.
    case queued(entryID: String, idempotencyKey: String)
    /// A "remove reaction" met an unsent "add reaction" for the same post and reaction:
    /// both were cancelled locally, nothing goes to the server.
    case cancelledLocally(cancelledEntryID: String)
}

/// An entry the server refused for good (4xx other than 408/409/429). It left the send
/// queue; the UI shows it ("Couldn't post your comment") until the user dismisses it.
public struct CommentRejection: Sendable, Equatable {
    public var entryID: String
    public var localID: String?
    public var postID: String
    public var kind: String
    public var statusCode: Int
    /// The server's machine-readable error code, if it sent a plausible one. Never the message.
    public var errorCode: String?
    public var body: Data
}

/// A read-only view of one journal entry (for the UI, debugging and tests).
public struct CommentEntrySnapshot: Sendable, Equatable {
    public enum State: String, Sendable { case pending, rejected }
    public var entryID: String
    public var localID: String?
    public var postID: String
    public var kind: String
    public var idempotencyKey: String
    public var body: Data
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var state: State
    public var statusCode: Int?
    public var errorCode: String?
}
