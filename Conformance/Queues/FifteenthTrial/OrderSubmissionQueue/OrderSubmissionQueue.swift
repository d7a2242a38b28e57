import Foundation

/// What the checkout API answered.
struct OrderHTTPResponse: Sendable {
    var statusCode: Int
}

/// A POST /orders with its idempotency key.
struct OrderHTTPRequest: Sendable {
    var idempotencyKey: String
    var payload: Data
}

struct OrderBackoff: Sendable {
    var initial: TimeInterval = 1
    var maximum: TimeInterval = 60

    func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(maximum, initial * pow(2, Double(max(attempt - 1, 0))))
    }
}

/// Submits orders placed offline. Orders are written to the `OrderStore` before `place` returns;
/// `sync()` sends the ones that are due, one at a time, oldest first. Retry times live in the
/// store (`notBefore`), so a later sync (app foreground, background refresh) picks them up.
final class OrderSubmissionQueue: @unchecked Sendable {
    typealias Transport = @Sendable (OrderHTTPRequest) async throws -> OrderHTTPResponse

    private let store: OrderStore
    private let transport: Transport
    private let now: @Sendable () -> Date
    private let backoff: OrderBackoff

    private let lock = NSLock()
    /// Orders a sync of this process is sending right now.
    private var sending: Set<UUID> = []
    private var logLines: [String] = []

    init(store: OrderStore, backoff: OrderBackoff = OrderBackoff(), now: @escaping @Sendable () -> Date,
         transport: @escaping Transport) {
        self.store = store
        self.backoff = backoff
        self.now = now
        self.transport = transport
    }

    var log: [String] { lock.withLock { logLines } }

    // MARK: Placing orders

    @discardableResult
    func place(reference: String, payload: Data) -> UUID {
        let created = now()
        let order = PendingOrder(
            id: UUID(), reference: reference, idempotencyKey: UUID().uuidString, payload: payload,
            createdAt: created, notBefore: created)
        store.insert(order)
        note("placed \(reference)")
        return order.id
    }

    // MARK: Sync

    func sync() async {
        while let order = claimNextDueOrder() {
            let outcome: Result<OrderHTTPResponse, any Error>
            do {
                outcome = .success(try await transport(
                    OrderHTTPRequest(idempotencyKey: order.idempotencyKey, payload: order.payload)))
            } catch {
                outcome = .failure(error)
            }
            record(outcome, for: order)
            lock.withLock { _ = sending.remove(order.id) }
        }
    }

    /// Picks the oldest due order nobody is sending and claims it, in one critical section.
    private func claimNextDueOrder() -> PendingOrder? {
        lock.withLock {
            let current = now()
            guard let next = store.allOrders().first(where: {
                $0.status == .pending && $0.notBefore <= current && !sending.contains($0.id)
            }) else { return nil }
            sending.insert(next.id)
            return store.update(next.id) { $0.attempts += 1 }
        }
    }

    private func record(_ outcome: Result<OrderHTTPResponse, any Error>, for order: PendingOrder) {
        switch outcome {
        case .success(let response):
            let code = response.statusCode
            switch code {
            // URLSession follows redirects for us, so a 3xx that reaches us is the API's
            // 304 Not Modified for an order it already holds: done either way.
            case 200..<400:
                store.update(order.id) { $0.status = .submitted; $0.failureReason = nil }
                note("\(order.reference) submitted (HTTP \(code))")
            case 409:
                fail(order, reason: "HTTP 409: this idempotency key was already used for a different order")
            case 408, 429, 500..<600:
                retryLater(order, reason: "HTTP \(code)")
            default:
                fail(order, reason: "HTTP \(code): the server refused the order")
            }
        case .failure(let error):
            retryLater(order, reason: "no response (\(error))")
        }
    }

    private func retryLater(_ order: PendingOrder, reason: String) {
        let updated = store.update(order.id) {
            let wait = backoff.delay(afterAttempt: $0.attempts)
            $0.notBefore = now().addingTimeInterval(wait)
        }
        let wait = updated.map { backoff.delay(afterAttempt: $0.attempts) } ?? 0
        note("\(order.reference): \(reason); retrying in \(wait) s")
    }

    private func fail(_ order: PendingOrder, reason: String) {
        store.update(order.id) { $0.status = .failed; $0.failureReason = reason }
        note("\(order.reference) failed: \(reason)")
    }

    private func note(_ line: String) {
        lock.withLock { logLines.append(line) }
    }
}
