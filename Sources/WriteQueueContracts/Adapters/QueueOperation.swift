import Foundation

/// One user action the kit submits to the queue: the user tapped "Create" (or saved an edit).
///
/// The kit chooses the body; the queue chooses the operation ID it persists (it may adopt
/// ``id``) and the idempotency key.
public struct QueueOperation: Hashable, Sendable, CustomStringConvertible {
    /// What the operation does to the server's data.
    public enum Kind: Hashable, Sendable {
        /// A new record: two creates are two records, even with identical bodies (Q6).
        case create
        /// An update of an existing entity: a coalescing queue may merge pending updates to
        /// the same entity, keeping the latest body (Q12).
        case update(entity: String)
    }

    /// The kit's name for the operation (`op-1`), usable as the queue's operation ID.
    public let id: String
    /// Create or update.
    public let kind: Kind
    /// The request body: JSON bytes, such as `{"title":"Ticket 1"}`.
    public let body: Data
    /// Names of body fields whose values must never appear in diagnostics or logs (Q10).
    public let sensitiveFields: Set<String>

    /// Creates an operation.
    public init(id: String, kind: Kind = .create, body: Data, sensitiveFields: Set<String> = []) {
        self.id = id
        self.kind = kind
        self.body = body
        self.sensitiveFields = sensitiveFields
    }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The entity an update changes, or `nil` for a create.
    public var entity: String? {
        if case .update(let entity) = kind { return entity }
        return nil
    }

    public var description: String { "\(id) body \(bodyText)" }
}
