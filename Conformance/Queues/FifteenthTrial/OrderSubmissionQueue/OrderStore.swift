import Foundation

/// One order the user placed while the app may be offline.
struct PendingOrder: Sendable, Equatable {
    enum Status: String, Sendable {
        case pending
        case submitted
        case failed  // stopped; the user has to look at it
    }

    let id: UUID
    /// The caller's reference for the order ("op-1", a cart ID, …).
    let reference: String
    let idempotencyKey: String
    /// Exact request body; never re-encoded.
    let payload: Data
    let createdAt: Date
    var status: Status = .pending
    var attempts: Int = 0
    /// The order is not sent before this date (backoff after an unknown outcome or a 408/429).
    var notBefore: Date
    var failureReason: String?
}

/// The app's persistent store for pending orders (the production build backs it with SQLite;
/// it outlives any one `OrderSubmissionQueue`). Every method is atomic.
final class OrderStore: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [UUID: PendingOrder] = [:]

    init() {}

    func insert(_ order: PendingOrder) {
        lock.withLock { rows[order.id] = order }
    }

    func order(_ id: UUID) -> PendingOrder? {
        lock.withLock { rows[id] }
    }

    /// Applies `change` to the stored row, if it still exists, and returns the new row.
    @discardableResult
    func update(_ id: UUID, _ change: (inout PendingOrder) -> Void) -> PendingOrder? {
        lock.withLock {
            guard var row = rows[id] else { return nil }
            change(&row)
            rows[id] = row
            return row
        }
    }

    /// Every row, oldest first.
    func allOrders() -> [PendingOrder] {
        lock.withLock { rows.values.sorted { $0.createdAt < $1.createdAt } }
    }
}
