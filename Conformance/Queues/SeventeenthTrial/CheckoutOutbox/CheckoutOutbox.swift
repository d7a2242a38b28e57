import Foundation

// MARK: - Transport

/// The app's payments client: `POST /v2/orders` with an `Idempotency-Key` header.
/// Returns the HTTP status; throws for transport failures (no status seen).
public protocol OrderAPI: Sendable {
    func placeOrder(_ body: Data, idempotencyKey: String) async throws -> Int
}

// MARK: - Stored model

/// One order the user placed, as kept on disk until the server confirms it.
public struct CheckoutPendingOrder: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case pending, needsAttention }

    public var id: UUID
    public var label: String              // caller's reference for the order (shown in support tools)
    public var idempotencyKey: String
    public var keyIssuedAt: Date
    public var body: Data                 // exact bytes of the request body, never re-encoded
    public var createdAt: Date
    public var attempts: Int
    public var state: State
    public var nextAttemptAt: Date?
    public var problem: String?           // why a person must look at it (never holds body fields)
}

/// One JSON file per order in a directory of the app's container.
struct OrderFileStore: Sendable {
    let directory: URL

    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private func url(for id: UUID) -> URL {
        directory.appendingPathComponent(id.uuidString).appendingPathExtension("order")
    }

    func write(_ order: CheckoutPendingOrder) throws {
        let data = try Self.encoder.encode(order)
        try data.write(to: url(for: order.id), options: [.atomic])
    }

    func delete(_ id: UUID) throws {
        let target = url(for: id)
        if FileManager.default.fileExists(atPath: target.path) {
            try FileManager.default.removeItem(at: target)
        }
    }

    static func readAll(in directory: URL) throws -> [CheckoutPendingOrder] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        return try files
            .filter { $0.pathExtension == "order" }
            .map { try decoder.decode(CheckoutPendingOrder.self, from: Data(contentsOf: $0)) }
            .sorted { $0.createdAt < $1.createdAt }
    }
}

// MARK: - Outbox

/// Checkout outbox: orders placed offline (or whose response got lost) are kept on disk and
/// replayed with the same idempotency key until the payments API gives a definite answer.
public actor CheckoutOutbox<C: Clock<Duration>> {
    // Policy
    static var backoffBase: Double { 2 }                 // seconds
    static var backoffCap: Double { 60 }                 // seconds
    static var retriesPerPass: Int { 8 }                 // then the order waits for the next sync
    static var retryableClientErrors: Set<Int> { [408, 429] }
    /// The payments API keeps idempotency keys for 72 h. A retry under a key the server has
    /// already purged is not deduplicated anyway, and some gateways answer 422 for an expired
    /// key, so a key is refreshed an hour before the server would forget it.
    static var keyRefreshAge: TimeInterval { 72 * 3600 - 3600 }

    private let store: OrderFileStore
    private let api: any OrderAPI
    private let clock: C
    private let now: @Sendable () -> Date
    private var orders: [UUID: CheckoutPendingOrder]
    private var sending: Set<UUID> = []                  // send lease, this process only
    private(set) var log: [String] = []

    public init(directory: URL, api: any OrderAPI, clock: C, now: @escaping @Sendable () -> Date) throws {
        self.store = try OrderFileStore(directory: directory)
        self.api = api
        self.clock = clock
        self.now = now
        let restored = try OrderFileStore.readAll(in: directory)
        self.orders = Dictionary(uniqueKeysWithValues: restored.map { ($0.id, $0) })
    }

    public var diagnostics: [String] { log }

    public static func storedOrders(in directory: URL) throws -> [CheckoutPendingOrder] {
        try OrderFileStore.readAll(in: directory)
    }

    // MARK: Submit

    /// Places an order: it is on disk, with its key, when this returns.
    @discardableResult
    public func place(_ body: Data, label: String) throws -> UUID {
        let created = now()
        let order = CheckoutPendingOrder(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString, keyIssuedAt: created,
            body: body, createdAt: created, attempts: 0, state: .pending, nextAttemptAt: nil, problem: nil)
        try store.write(order)
        orders[order.id] = order
        log.append("queued order \(label)")
        return order.id
    }

    // MARK: Sync

    /// One sync: sends every due order, oldest first, one at a time. An order whose outcome is
    /// unknown is retried inside the pass after a capped backoff (waited on the clock), a few
    /// times, then left for a later sync with its due time on disk.
    public func sync() async {
        var skipped: Set<UUID> = []
        while let id = nextDueOrder(excluding: skipped) {
            sending.insert(id)                           // lease taken before any await
            defer { sending.remove(id) }
            let finished = await deliver(id)
            if !finished { skipped.insert(id) }
            if Task.isCancelled { return }
        }
    }

    private func nextDueOrder(excluding skipped: Set<UUID>) -> UUID? {
        let current = now()
        return orders.values
            .filter { $0.state == .pending && !sending.contains($0.id) && !skipped.contains($0.id) }
            .filter { ($0.nextAttemptAt ?? .distantPast) <= current }
            .min { $0.createdAt < $1.createdAt }?
            .id
    }

    /// Sends one order until it gets a definite answer or the pass's retries run out.
    /// Returns true when the order needs nothing more from this pass.
    private func deliver(_ id: UUID) async -> Bool {
        for _ in 0..<Self.retriesPerPass {
            guard var order = orders[id], order.state == .pending else { return true }
            do {
                let key = try keyForAttempt(&order)
                order.attempts += 1
                try persist(order)
                let status: Int
                do {
                    status = try await api.placeOrder(order.body, idempotencyKey: key)
                } catch {
                    log.append("order \(order.label) attempt \(order.attempts): no answer (\(Self.describe(error)))")
                    guard try await backOff(id) else { return false }
                    continue
                }
                switch status {
                case 200..<300:
                    try store.delete(id)
                    orders[id] = nil
                    log.append("order \(order.label) confirmed (\(status))")
                    return true
                case 409:
                    try stop(id, because: "409: this key was already used with a different order body")
                    return true
                case 400..<500 where Self.retryableClientErrors.contains(status):
                    log.append("order \(order.label) attempt \(order.attempts): \(status), will retry")
                    guard try await backOff(id) else { return false }
                case 400..<500:
                    try stop(id, because: "rejected with HTTP \(status)")
                    return true
                default:                                 // 3xx, 5xx: the outcome is unknown
                    log.append("order \(order.label) attempt \(order.attempts): HTTP \(status), outcome unknown")
                    guard try await backOff(id) else { return false }
                }
            } catch {
                log.append("order \(order.label): sync stopped (\(Self.describe(error)))")
                return false
            }
        }
        return false
    }

    /// The key this attempt carries; refreshed when the server may already have forgotten it.
    private func keyForAttempt(_ order: inout CheckoutPendingOrder) throws -> String {
        let current = now()
        if current.timeIntervalSince(order.keyIssuedAt) >= Self.keyRefreshAge {
            order.idempotencyKey = UUID().uuidString
            order.keyIssuedAt = current
            log.append("order \(order.label): idempotency key refreshed before expiry")
        }
        return order.idempotencyKey
    }

    /// Records the due time of the next attempt, then waits for it on the clock.
    /// Returns false when the wait was cancelled (the order stays due on disk).
    private func backOff(_ id: UUID) async throws -> Bool {
        guard var order = orders[id] else { return false }
        let exponent = Double(min(max(order.attempts - 1, 0), 16))
        let delay = min(Self.backoffCap, Self.backoffBase * pow(2, exponent))
        order.nextAttemptAt = now().addingTimeInterval(delay)
        try persist(order)
        do {
            try await clock.sleep(for: .milliseconds(Int64(delay * 1000)))
        } catch {
            return false
        }
        return true
    }

    private func stop(_ id: UUID, because reason: String) throws {
        guard var order = orders[id] else { return }
        order.state = .needsAttention
        order.problem = reason
        order.nextAttemptAt = nil
        try persist(order)
        log.append("order \(order.label) needs attention: \(reason)")
    }

    private func persist(_ order: CheckoutPendingOrder) throws {
        try store.write(order)
        orders[order.id] = order
    }

    private static func describe(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        return String(describing: type(of: error))
    }
}
