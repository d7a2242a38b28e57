import Foundation

/// The sample app's durable store: an object that outlives any ``TicketOutbox`` instance, as a
/// database would. Two outboxes (the app and its share extension) may use one store; the send
/// lease lives here, in the persistence layer.
public final class OutboxStore: @unchecked Sendable {
    /// One stored operation.
    public struct Item: Hashable, Sendable {
        /// Where an item stands.
        public enum State: Hashable, Sendable {
            /// Waiting to be sent, or for a retry.
            case waiting
            /// Sent successfully; kept for the app's history.
            case done
            /// Stopped; the reason is shown to the user.
            case stuck(reason: String)
        }

        /// The operation's ID.
        public var id: String
        /// The idempotency key (`nil` only in the key-in-memory mutant).
        public var key: String?
        /// The request body.
        public var body: Data
        /// The entity an update changes, or `nil` for a create.
        public var entity: String?
        /// When the item was queued.
        public var createdAt: Duration
        /// Where the item stands.
        public var state: State = .waiting
        /// How many requests were made.
        public var attempts: Int = 0
        /// The earliest time of the next request.
        public var retryAt: Duration
    }

    private struct Lease {
        let owner: UUID
        let expires: Duration
    }

    private let lock = NSLock()
    private var items: [Item] = []
    private var leases: [String: Lease] = [:]

    /// An empty store.
    public init() {}

    /// Every item, in submit order.
    public var all: [Item] { lock.withLock { items } }

    func append(_ item: Item) {
        lock.withLock { items.append(item) }
    }

    /// Replaces everything: only the overwrite defect uses it.
    func replaceAll(with newItems: [Item]) {
        lock.withLock { items = newItems }
    }

    func update(_ id: String, _ change: (inout Item) -> Void) {
        lock.withLock {
            if let index = items.firstIndex(where: { $0.id == id }) { change(&items[index]) }
        }
    }

    func remove(_ id: String) {
        lock.withLock { items.removeAll { $0.id == id } }
    }

    /// Takes the send lease of `id` until `expires`, unless a lease that has not expired exists.
    func acquireLease(_ id: String, owner: UUID, now: Duration, expires: Duration) -> Bool {
        lock.withLock {
            if let lease = leases[id], lease.expires > now { return false }
            leases[id] = Lease(owner: owner, expires: expires)
            return true
        }
    }

    func releaseLease(_ id: String, owner: UUID) {
        lock.withLock {
            if leases[id]?.owner == owner { leases[id] = nil }
        }
    }

    /// When the lease of `id` expires, if it is held at `now`.
    func leaseExpiry(_ id: String, now: Duration) -> Duration? {
        lock.withLock { leases[id].flatMap { $0.expires > now ? $0.expires : nil } }
    }
}
