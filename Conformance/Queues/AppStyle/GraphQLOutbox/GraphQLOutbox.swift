import Foundation

public struct GraphQLOutboxMutation: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    /// Idempotency key; travels inside the body as `variables.input.clientMutationId`.
    public let clientMutationId: String
    /// The full GraphQL envelope, encoded once at submit. Every attempt sends these bytes.
    public let envelope: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct GraphQLOutboxHTTPRequest: Sendable {
    public let path: String
    public let method: String
    public let headers: [String: String]
    public let body: Data
}

public protocol GraphQLOutboxTransport: Sendable {
    /// HTTP status; throws on disconnect / timeout.
    func post(_ request: GraphQLOutboxHTTPRequest) async throws -> Int
}

public final class GraphQLOutboxStore: @unchecked Sendable {
    private let lock = NSLock()
    private var mutations: [UUID: GraphQLOutboxMutation] = [:]
    public init() {}

    public func all() -> [GraphQLOutboxMutation] {
        lock.lock(); defer { lock.unlock() }
        return mutations.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }
    func get(_ id: UUID) -> GraphQLOutboxMutation? {
        lock.lock(); defer { lock.unlock() }
        return mutations[id]
    }
    func set(_ m: GraphQLOutboxMutation) {
        lock.lock(); defer { lock.unlock() }
        mutations[m.id] = m
    }
    func remove(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        mutations[id] = nil
    }
}

public enum GraphQLOutboxError: Error, Equatable {
    case inputIsNotAJSONObject
}

/// Outbox that POSTs a GraphQL `createItem` mutation. The idempotency key is the
/// `clientMutationId` inside `variables.input`; there is no Idempotency-Key header.
public actor GraphQLOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "cardNumber", "cvv"]
    public static let mutationDocument =
        "mutation CreateItem($input: CreateItemInput!) { createItem(input: $input) { item { id } clientMutationId } }"

    private let store: GraphQLOutboxStore
    private let transport: any GraphQLOutboxTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let base: Duration
    private let cap: Duration
    private var leased: Set<UUID> = []

    public init(
        store: GraphQLOutboxStore,
        transport: any GraphQLOutboxTransport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        base: Duration = .seconds(1),
        cap: Duration = .seconds(60)
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.base = base
        self.cap = cap
    }

    /// `input` is a JSON object holding the operation fields.
    @discardableResult
    public func submit(input: Data) throws -> UUID {
        guard let fields = try JSONSerialization.jsonObject(with: input) as? [String: Any] else {
            throw GraphQLOutboxError.inputIsNotAJSONObject
        }
        let key = UUID().uuidString
        var inputObject = fields
        inputObject["clientMutationId"] = key
        let envelope: [String: Any] = [
            "query": Self.mutationDocument,
            "variables": ["input": inputObject],
        ]
        let bytes = try JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys])
        let mutation = GraphQLOutboxMutation(
            id: UUID(),
            clientMutationId: key,
            envelope: bytes,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        store.set(mutation)
        return mutation.id
    }

    public func mutations() -> [GraphQLOutboxMutation] { store.all() }

    public func flush() async {
        for m in store.all() where m.status == .pending && !leased.contains(m.id) {
            guard !leased.contains(m.id) else { continue }
            leased.insert(m.id)
            defer { leased.remove(m.id) }
            if m.attempts > 0 {
                do { try await clock.sleep(for: delay(m.attempts)) } catch { return }
            }
            await attempt(m.id)
        }
    }

    private func attempt(_ id: UUID) async {
        guard var m = store.get(id), m.status == .pending else { return }
        m.attempts += 1
        store.set(m)

        let status: Int
        do {
            status = try await transport.post(GraphQLOutboxHTTPRequest(
                path: "/items",
                method: "POST",
                headers: ["Content-Type": "application/json"],
                body: m.envelope
            ))
        } catch {
            return
        }

        if (200..<300).contains(status) {
            store.remove(id)
            return
        }
        switch status {
        case 409:
            m.status = .needsAttention
            m.diagnostic = "409: clientMutationId \(m.clientMutationId) already used with different input"
            store.set(m)
        case 408, 429, 500...:
            break
        case 400..<500:
            m.status = .needsAttention
            m.diagnostic = "HTTP \(status) for CreateItem; not retried"
            store.set(m)
        default:
            break
        }
    }

    private func delay(_ failures: Int) -> Duration {
        let shift = min(max(failures - 1, 0), 24)
        return min(cap, base * (1 << shift))
    }
}
