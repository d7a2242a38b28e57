/// One committed write: the idempotency key, the record ID the server gave it and the body
/// it was committed with.
public struct StoredRecord: Hashable, Sendable {
    /// The `Idempotency-Key` of the request that created the record.
    public let key: String
    /// The record ID (1, 2, 3 … in commit order, as in the seed script).
    public let id: Int
    /// The parsed request body.
    public let body: JSONValue

    /// Creates a record.
    public init(key: String, id: Int, body: JSONValue) {
        self.key = key
        self.id = id
        self.body = body
    }

    /// The record as one journal line (without the newline): `{"body":…,"id":1,"key":"k"}`.
    var journalLine: String {
        JSONValue.object(["key": .string(key), "id": .number(Double(id)), "body": body]).serialized
    }

    /// Reads a journal line back, or returns `nil` if it is not a complete record.
    init?(journalLine bytes: [UInt8]) {
        guard let value = JSONValue.parse(bytes),
            case .string(let key)? = value["key"],
            case .number(let id)? = value["id"], id == id.rounded(), id >= 1, id < 9_007_199_254_740_992,
            let body = value["body"]
        else { return nil }
        self.init(key: key, id: Int(id), body: body)
    }
}
