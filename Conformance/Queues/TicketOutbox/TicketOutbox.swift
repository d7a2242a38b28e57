import Foundation

/// A sample adopter: an outbox written the way an app would write one, as an actor over an
/// in-memory store object. It differs from the reference on purpose, in ways the kit must
/// accept: it keeps completed items (marked done) instead of removing them, its send lease lives
/// in the store and expires on the clock (so an app and its extension can share the store), a
/// pass waits for a lease held elsewhere instead of returning, and it merges pending updates to
/// one entity (keeping the newest body and the first key).
///
/// The mutants in `Conformance/Mutants/Queues` are this outbox with one ``OutboxDefect``; each
/// branch that reads the defect is marked `// Mutant:`.
public actor TicketOutbox {
    /// How long a send lease holds before another sender may take over.
    static let leaseDuration: Duration = .seconds(60)
    /// The first retry delay and the cap.
    static let baseDelay: Duration = .seconds(1)
    static let maximumDelay: Duration = .seconds(16)

    private let store: OutboxStore
    private let environment: OutboxEnvironment
    private let defect: OutboxDefect?
    private let owner = UUID()
    private var log: [String] = []
    private var restored = false
    private var keysInMemory: [String: String] = [:]
    private var unsaved: [OutboxStore.Item] = []
    private var submittedSinceLaunch: [OutboxStore.Item] = []

    /// Opens the outbox over `store` (a relaunch finds what a crash left).
    /// - Parameters:
    ///   - store: The durable store, shared with other outboxes of the app.
    ///   - environment: How to post, what time it is, how to wait.
    ///   - defect: The bug of a mutant; `nil` for the app's real outbox.
    public init(store: OutboxStore, environment: OutboxEnvironment, defect: OutboxDefect? = nil) {
        self.store = store
        self.environment = environment
        self.defect = defect
    }

    /// Queues a ticket operation; an update to an entity that already waits is merged.
    public func enqueue(id: String, entity: String?, body: Data) {
        let now = environment.now()
        if let entity, let pending = store.all.first(where: { $0.entity == entity && $0.state == .waiting && $0.attempts == 0 }) {
            // Mutant: coalescesKeepingOlderBody keeps the body that was queued first.
            let newest = defect == .coalescesKeepingOlderBody ? pending.body : body
            store.update(pending.id) { $0.body = newest }
            log.append("merged \(id) into \(pending.id) (\(body.count) bytes)")
            return
        }
        let item = OutboxStore.Item(
            id: id, key: newKey(for: body), body: body, entity: entity, createdAt: now, retryAt: now)
        if defect == .persistsAfterFirstSend {
            unsaved.append(item)  // Mutant: written only after the first send.
        } else if defect == .overwritesStoreOnFirstSubmit, !restored {
            // Mutant: until a flush restores the store, submits save this launch's list over it.
            submittedSinceLaunch.append(item)
            store.replaceAll(with: submittedSinceLaunch)
        } else {
            store.append(item)
        }
        if defect == .logsBodies {
            log.append("queued \(id): \(String(decoding: body, as: UTF8.self))")  // Mutant: the body.
        } else {
            log.append("queued \(id) key \(item.key ?? "later") (\(body.count) bytes)")
        }
    }

    /// Sends everything waiting; waits on the clock for retries and for leases held elsewhere.
    /// Returns when nothing waits.
    public func flush() async {
        restored = true
        while !Task.isCancelled {
            let now = environment.now()
            let waiting = (unsaved + store.all).filter { $0.state == .waiting }
            guard !waiting.isEmpty else { return }
            let due = waiting.filter { $0.retryAt <= now && store.leaseExpiry($0.id, now: now) == nil }
            guard let item = due.first else {
                let wake = waiting.map { max($0.retryAt, store.leaseExpiry($0.id, now: now) ?? $0.retryAt) }.min() ?? now
                do { try await environment.waitUntil(wake) } catch { return }
                continue
            }
            // Mutant: sendsWithoutLease skips the lease.
            // Each delivery holds its own lease: with one owner per instance, a pass whose request
            // outlived its lease released the lease another pass of the same instance had taken
            // over, and retried beside it (the explorer found it once Q7 judged requests started
            // within the request timeout).
            let lease = UUID()
            if defect != .sendsWithoutLease {
                guard store.acquireLease(item.id, owner: lease, now: now, expires: now + Self.leaseDuration) else { continue }
            }
            let keepGoing = await deliver(item)
            store.releaseLease(item.id, owner: lease)
            if !keepGoing { return }
        }
    }

    /// The outbox's log: IDs, keys, statuses and byte counts, never a body.
    public func logLines() -> [String] { log }

    private func deliver(_ item: OutboxStore.Item) async -> Bool {
        // Mutant: keepsKeyOnlyInMemory makes the key here, once per launch.
        let key = item.key ?? keysInMemory[item.id, default: UUID().uuidString.lowercased()]
        keysInMemory[item.id] = key
        save(item.id) { $0.attempts += 1 }
        let answer: Int?
        do {
            answer = try await environment.post(key, item.body)
        } catch is CancellationError {
            return false
        } catch {
            answer = nil
        }
        if let index = unsaved.firstIndex(where: { $0.id == item.id }) {
            store.append(unsaved.remove(at: index))  // Mutant: persistsAfterFirstSend saves it now.
        }
        guard let status = answer else {
            scheduleRetry(item.id, reason: "no answer")
            return true
        }
        switch status {
        case 200..<300:
            save(item.id) { $0.state = .done }
            log.append("\(item.id) sent (\(status))")
        case _ where defect == .completesOnAnyResponse:
            save(item.id) { $0.state = .done }  // Mutant: any answer completes.
        case 409 where defect == .retriesConflictForever:
            scheduleRetry(item.id, reason: "409")  // Mutant: a conflict is retried.
        case 409:
            stop(item.id, "409 conflict: this key already holds a different ticket")
        case 408, 429:
            scheduleRetry(item.id, reason: "\(status)")
        case 400..<500 where defect == .retriesEveryClientError:
            scheduleRetry(item.id, reason: "\(status)")  // Mutant: every client error is retried.
        case 400..<500:
            stop(item.id, "\(status): the server refused this ticket")
        case 500..<600 where defect == .deletesTaskOn5xx:
            store.remove(item.id)  // Mutant: a 5xx deletes the item.
        default:
            scheduleRetry(item.id, reason: "\(status)")
        }
        return true
    }

    private func scheduleRetry(_ id: String, reason: String) {
        let attempts = (unsaved + store.all).first { $0.id == id }?.attempts ?? 1
        var delay = Self.baseDelay * (1 << min(attempts - 1, 20))
        if defect != .backsOffWithoutCap { delay = min(delay, Self.maximumDelay) }  // Mutant: no cap.
        let retryAt = environment.now() + delay
        save(id) { item in
            item.retryAt = retryAt
            if defect == .regeneratesKeyOnRetry { item.key = UUID().uuidString.lowercased() }  // Mutant.
        }
        log.append("\(id) \(reason): retry \(attempts) in \(delay)")
    }

    private func stop(_ id: String, _ reason: String) {
        save(id) { $0.state = .stuck(reason: reason) }
        log.append("\(id) stopped: \(reason)")
    }

    private func save(_ id: String, _ change: (inout OutboxStore.Item) -> Void) {
        if let index = unsaved.firstIndex(where: { $0.id == id }) {
            change(&unsaved[index])
        } else {
            store.update(id, change)
        }
    }

    private func newKey(for body: Data) -> String? {
        switch defect {
        case .keepsKeyOnlyInMemory: return nil  // Mutant: no key is stored.
        case .derivesKeyFromBody: return "body-" + String(Self.fnv1a(body), radix: 16)  // Mutant.
        default: return UUID().uuidString.lowercased()
        }
    }

    private static func fnv1a(_ data: Data) -> UInt64 {
        data.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }
}
