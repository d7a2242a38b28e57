import Foundation
import WriteQueueContracts

/// The smallest correct write queue, with one setting per conforming variation
/// (``MinimalQueueSettings``): send order, body encoding, lease location, sends per pass,
/// how backoff waits, and the transport style.
public actor MinimalQueue {
    static let cap = Duration.seconds(32)
    static let requestTimeout = Duration.seconds(30)

    private let store: MinimalQueueStore
    private let environment: QueueEnvironment
    private let serial = DispatchQueue(label: "minimal-queue.transport")
    private var leases: Set<String> = []
    private var log: [String] = []

    init(store: MinimalQueueStore, environment: QueueEnvironment) {
        self.store = store
        self.environment = environment
    }

    private var settings: MinimalQueueSettings { store.settings }

    func submit(id: String, body: Data) {
        let now = environment.now()
        let fields = (try? JSONSerialization.jsonObject(with: body) as? [String: String]) ?? [:]
        store.append(
            MinimalQueueStore.Row(
                operationID: id, key: UUID().uuidString,
                body: settings.bodyEncoding == .storedBytes ? body : Data(), fields: fields,
                createdAt: now, dueAt: now))
        log.append("queued \(id)")
    }

    func diagnostics() -> [String] { log }

    /// Returns once every block already queued on the transport's dispatch queue has run: the
    /// barrier its adapter gives the kit.
    nonisolated func waitForTransportQueue() {
        serial.sync {}
    }

    /// One pass: every due task once; with `.waitsOnClock`, a task whose retry is due later is
    /// waited for on the clock and sent again, until nothing pending is left.
    func runPass() async {
        guard settings.sendOrder != .headOfLine else { return await runPassInOrder() }
        while true {
            let now = environment.now()
            let pending = store.all.filter { $0.stoppedBecause == nil }
            let due = ordered(pending.filter { $0.dueAt <= now })
            if !due.isEmpty {
                switch settings.sendsPerPass {
                case .oneAtATime:
                    for row in due { await send(row.key) }
                case .concurrent:
                    await withTaskGroup(of: Void.self) { group in
                        for row in due { group.addTask { await self.send(row.key) } }
                    }
                }
            }
            guard settings.backoff == .waitsOnClock else { return }
            let later = store.all.filter { $0.stoppedBecause == nil && $0.dueAt > environment.now() }
            guard due.isEmpty || !later.isEmpty, let next = later.map(\.dueAt).min() else { return }
            let clock = environment.clock
            do {
                try await clock.sleep(until: clock.instant(at: next))
            } catch {
                return
            }
        }
    }

    /// One pass of ``MinimalQueueSettings/SendOrder/headOfLine``: the oldest unfinished task
    /// until it completes or stops, then the next; with `.dueTimeInStorage` the pass ends at a
    /// head that is not due or still pending after its request (a later pass retries it).
    private func runPassInOrder() async {
        while let head = store.all.filter({ $0.stoppedBecause == nil }).min(by: { $0.createdAt < $1.createdAt }) {
            if head.dueAt > environment.now() {
                guard settings.backoff == .waitsOnClock else { return }
                let clock = environment.clock
                do {
                    try await clock.sleep(until: clock.instant(at: head.dueAt))
                } catch {
                    return
                }
            }
            // Another pass holds its lease: that pass works the line.
            guard await send(head.key) else { return }
            let stillPending = store.all.contains { $0.key == head.key && $0.stoppedBecause == nil }
            if stillPending && settings.backoff == .dueTimeInStorage { return }
        }
    }

    private func ordered(_ rows: [MinimalQueueStore.Row]) -> [MinimalQueueStore.Row] {
        switch settings.sendOrder {
        case .headOfLine, .oldestFirst: rows.sorted { $0.createdAt < $1.createdAt }
        case .newestFirst: rows.sorted { $0.createdAt > $1.createdAt }
        case .random: rows.shuffled()
        }
    }

    /// Sends `key`'s task if it is pending, due and not leased; `false` when it sent nothing.
    @discardableResult
    private func send(_ key: String) async -> Bool {
        guard var row = store.all.first(where: { $0.key == key }), row.stoppedBecause == nil,
            row.dueAt <= environment.now(), lease(key)
        else { return false }
        defer { release(key) }
        row.attempts += 1
        store.update(key) { $0.attempts += 1 }
        let request = WriteRequest(idempotencyKey: key, body: wireBody(of: row))
        log.append("send \(row.operationID) key \(key) attempt \(row.attempts)")
        do {
            let response = try await post(request)
            log.append("\(row.operationID) answered \(response.statusCode)")
            switch response.statusCode {
            case 200..<300:
                store.remove(key)
            case 408, 429, 500...:
                retryLater(key, attempts: row.attempts)
            default:
                store.update(key) { $0.stoppedBecause = "\(response.statusCode): not resent" }
            }
        } catch {
            log.append("\(row.operationID) got no answer")
            retryLater(key, attempts: row.attempts)
        }
        return true
    }

    private func wireBody(of row: MinimalQueueStore.Row) -> Data {
        switch settings.bodyEncoding {
        case .storedBytes:
            row.body
        case .reencodedDictionary:
            (try? JSONSerialization.data(withJSONObject: row.fields, options: [.sortedKeys, .prettyPrinted]))
                ?? Data()
        }
    }

    private func post(_ request: WriteRequest) async throws -> WriteResponse {
        let transport = environment.transport
        switch settings.transport {
        case .async:
            return try await transport.send(request)
        case .completionHandlerOnDispatchQueue:
            return try await withCheckedThrowingContinuation { continuation in
                serial.async {
                    transport.send(request) { result in continuation.resume(with: result) }
                }
            }
        }
    }

    private func retryLater(_ key: String, attempts: Int) {
        let delay = min(Self.cap, .seconds(1) * (1 << min(attempts - 1, 16)))
        let due = environment.now().addingTimeInterval(Double(delay.components.seconds))
        store.update(key) { $0.dueAt = due }
    }

    private func lease(_ key: String) -> Bool {
        switch settings.leaseLocation {
        case .processMemory:
            return leases.insert(key).inserted
        case .storage:
            let now = environment.now()
            return store.takeLease(key, now: now, until: now.addingTimeInterval(35))
        }
    }

    private func release(_ key: String) {
        switch settings.leaseLocation {
        case .processMemory: leases.remove(key)
        case .storage: store.update(key) { $0.leaseExpiry = nil }
        }
    }
}
