import Foundation

/// Where a queue's request carries the idempotency key and the operation's own body, so the
/// kit can recognise an operation however the app wraps it.
///
/// Most queues send the operation's JSON as the request body and the key in an
/// `Idempotency-Key` header: the default. A GraphQL client sends an envelope
/// (`{"query": "…", "variables": {"input": {…}}}`) and may carry the key inside the input as
/// `clientMutationId`:
///
/// ```swift
/// QueueCapabilities(requestLayout: RequestLayout(
///     operationBody: ["variables", "input"], key: .bodyField(["variables", "input", "clientMutationId"])))
/// ```
///
/// The kit then reads the key from that field, and compares the object at `operationBody`
/// (without the key field) with the operation it submitted, as a JSON value. Resends are still
/// compared byte for byte with the task's first attempt (Q3): the same bytes, whatever their
/// layout.
///
/// A queue that adds fields of its own to the operation's body when the operation is submitted
/// (a creation stamp the API asks for, a device ID) names them, and the kit leaves them out when
/// it recognises an operation:
///
/// ```swift
/// QueueCapabilities(requestLayout: RequestLayout(addedFields: ["client_created_at"]))
/// ```
///
/// The fields still travel in the bytes Q3 compares: a stamp made once at submit and stored
/// passes; one made again at each attempt sends other bytes under the same key, and fails.
public struct RequestLayout: Hashable, Sendable {
    /// Where the key travels.
    public enum KeyLocation: Hashable, Sendable {
        /// In ``WriteRequest/idempotencyKey`` (the `Idempotency-Key` header).
        case header
        /// In the body, at this path of object keys and array indices (for example
        /// `["clientMutationId"]`, or `["mutations", "0", "idempotencyKey"]`).
        case bodyField([String])
    }

    /// The path from the request body to the operation's own body; empty when the request body
    /// is the operation's body. Each step is an object key, or a decimal index into an array
    /// (`["mutations", "0", "record"]` for `{"mutations": [{"record": {…}}]}`).
    public var operationBody: [String]
    /// Where the key travels.
    public var key: KeyLocation
    /// Members the queue adds to the operation's body object at submit (for example
    /// `"client_created_at"`), which the kit leaves out when it recognises an operation; none by
    /// default.
    public var addedFields: Set<String>

    /// Creates a layout.
    /// - Parameters:
    ///   - operationBody: The path to the operation's body inside the request body; empty by
    ///     default (the request body is the operation's body).
    ///   - key: Where the key travels; ``KeyLocation/header`` by default.
    ///   - addedFields: Members the queue adds to the operation's body object; none by default.
    public init(operationBody: [String] = [], key: KeyLocation = .header, addedFields: Set<String> = []) {
        self.operationBody = operationBody
        self.key = key
        self.addedFields = addedFields
    }

    /// The body as the operation's body and the key in the header: the default.
    public static let plain = RequestLayout()

    /// The key and the operation's canonical body (sorted keys, the key field removed) of
    /// `request`, read through this layout. A body that is not JSON is returned unchanged.
    package func normalize(_ request: WriteRequest) -> (key: String?, body: Data) {
        // The form depends on the body alone (the header key only fills in a missing body key),
        // so one cached entry serves every request with these bytes, whatever its header.
        let entry = CanonicalFormCache.shared.entry(.operation(self), of: request.body) {
            operationForm(of: request.body)
        }
        return (entry.key ?? request.idempotencyKey, entry.body ?? request.body)
    }

    /// The key this layout finds in `body` and the operation's canonical body, or an entry
    /// without a body when `body` is not JSON.
    private func operationForm(of body: Data) -> CanonicalFormCache.Entry {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return CanonicalFormCache.Entry() }
        var key: String?
        var operation = Self.value(at: operationBody, in: object) ?? object
        if case .bodyField(let path) = self.key {
            key = Self.value(at: path, in: object).flatMap { $0 as? String }
            if path.starts(with: operationBody), path.count > operationBody.count {
                operation = Self.removing(Array(path.dropFirst(operationBody.count)), from: operation)
            }
        }
        for field in addedFields { operation = Self.removing([field], from: operation) }
        return CanonicalFormCache.Entry(key: key, body: WriteBody.canonical(operation))
    }

    private static func value(at path: [String], in object: Any) -> Any? {
        var current: Any? = object
        for component in path {
            if let array = current as? [Any] {
                current = Int(component).flatMap { array.indices.contains($0) ? array[$0] : nil }
            } else {
                current = (current as? [String: Any])?[component]
            }
        }
        return current
    }

    private static func removing(_ path: [String], from object: Any) -> Any {
        guard let first = path.first else { return object }
        if var array = object as? [Any], let index = Int(first), array.indices.contains(index) {
            // An element is never removed from an array: the path's last step names a field.
            if path.count > 1 { array[index] = removing(Array(path.dropFirst()), from: array[index]) }
            return array
        }
        guard var dictionary = object as? [String: Any] else { return object }
        if path.count == 1 {
            dictionary[first] = nil
        } else if let inner = dictionary[first] {
            dictionary[first] = removing(Array(path.dropFirst()), from: inner)
        }
        return dictionary
    }
}

/// JSON bodies compared as values: the kit's one canonical form.
enum WriteBody {
    /// `object` as canonical JSON: sorted keys, no whitespace.
    static func canonical(_ object: Any) -> Data? {
        guard JSONSerialization.isValidJSONObject(object) || object is String || object is NSNumber
        else { return nil }
        return try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    }

    /// `body` as canonical JSON, or `nil` when it is not JSON.
    static func canonical(_ body: Data) -> Data? {
        guard !body.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return nil }
        return canonical(object)
    }

    /// `body` as canonical JSON, or unchanged when it is not JSON.
    static func normalized(_ body: Data) -> Data {
        CanonicalFormCache.shared.entry(.body, of: body) { CanonicalFormCache.Entry(body: canonical(body)) }.body
            ?? body
    }
}
