import Foundation

/// One request a queue sends through the kit's transport: `POST /items` with an
/// `Idempotency-Key` header and a JSON body, as in the source document.
public struct WriteRequest: Hashable, Sendable {
    /// The `Idempotency-Key` header, or `nil` when the queue sent none.
    public var idempotencyKey: String?
    /// The body bytes.
    public var body: Data

    /// Creates a request.
    public init(idempotencyKey: String?, body: Data) {
        self.idempotencyKey = idempotencyKey
        self.body = body
    }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
