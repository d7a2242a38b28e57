// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// What the outbox needs from a reachability monitor (an `NWPathMonitor` wrapper in the app).
/// The handler is async so a caller that wants to can await the sync it starts; the app's
/// monitor just wraps it in a `Task`.
protocol RoundEightReachability: AnyObject, Sendable {
    func setOnReachable(_ handler: @escaping @Sendable () async -> Void)
}

/// Outbox that syncs when the network comes back. Each request races a timeout on the
/// injected clock; failed requests back off exponentially (capped), with the next attempt time
/// stored as a `Date` from the injected `now`.
actor RoundEightReachabilityOutbox<C: Clock> where C.Duration == Duration {
    struct Item: Codable, Sendable, Equatable {
        let id: UUID
        let label: String
        let idempotencyKey: String
        let body: Data
        let createdAt: Date
        var attempts: Int
        var notBefore: Date?
        var stoppedReason: String?
    }

    struct Policy: Sendable {
        var requestTimeout: Duration = .seconds(30)
        var baseDelay: TimeInterval = 1
        var maxDelay: TimeInterval = 60
    }

    typealias Send = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    private enum Outcome: Sendable {
        case answered(Int)
        case noAnswer
        case timedOut
    }

    private let fileURL: URL
    private let send: Send
    private let clock: C
    private let now: @Sendable () -> Date
    private let policy: Policy
    private var items: [Item]
    private var draining = false
    private var rerunRequested = false

    init(fileURL: URL, send: @escaping Send, clock: C, now: @escaping @Sendable () -> Date,
         policy: Policy = Policy()) throws {
        self.fileURL = fileURL
        self.send = send
        self.clock = clock
        self.now = now
        self.policy = policy
        items = try Self.load(from: fileURL)
    }

    nonisolated func observe(_ reachability: some RoundEightReachability) {
        reachability.setOnReachable { [weak self] in
            await self?.networkBecameReachable()
        }
    }

    // MARK: Public API

    @discardableResult
    func enqueue(label: String, body: Data) throws -> UUID {
        let item = Item(id: UUID(), label: label, idempotencyKey: UUID().uuidString, body: body,
                        createdAt: now(), attempts: 0, notBefore: nil, stoppedReason: nil)
        items.append(item)
        do {
            try save()
        } catch {
            items.removeAll { $0.id == item.id }
            throw error
        }
        return item.id
    }

    /// Runs a sync. If one is already running, asks it to go round once more and returns:
    /// the running sync will pick up whatever became due meanwhile.
    func networkBecameReachable() async {
        guard !draining else {
            rerunRequested = true
            return
        }
        draining = true
        defer { draining = false }
        repeat {
            rerunRequested = false
            await drainOnce()
        } while rerunRequested
    }

    // MARK: Sync

    private func drainOnce() async {
        let dueIDs = items.filter { isDue($0) }.map(\.id)
        for id in dueIDs {
            guard let item = items.first(where: { $0.id == id }), isDue(item) else { continue }
            let outcome = await attempt(item)
            apply(outcome, to: id)
        }
    }

    private func isDue(_ item: Item) -> Bool {
        item.stoppedReason == nil && (item.notBefore.map { $0 <= now() } ?? true)
    }

    private func attempt(_ item: Item) async -> Outcome {
        let send = self.send
        let clock = self.clock
        let timeout = policy.requestTimeout
        let key = item.idempotencyKey
        let body = item.body
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    let status = try await send(key, body)
                    return .answered(status)
                } catch {
                    return .noAnswer
                }
            }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                    return .timedOut
                } catch {
                    return nil   // cancelled: the request finished first
                }
            }
            var first: Outcome = .noAnswer
            for await result in group {
                if let result {
                    first = result
                    break
                }
            }
            group.cancelAll()
            return first
        }
    }

    private func apply(_ outcome: Outcome, to id: UUID) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        switch outcome {
        case .answered(let status) where (200..<300).contains(status):
            items.remove(at: index)
        case .answered(let status) where status == 408 || status == 429:
            scheduleRetry(at: index)
        case .answered(409):
            items[index].attempts += 1
            items[index].stoppedReason = "HTTP 409: conflicts with an earlier request under the same key"
        case .answered(let status) where (400..<500).contains(status):
            items[index].attempts += 1
            items[index].stoppedReason = "HTTP \(status): rejected by the server"
        case .answered, .noAnswer, .timedOut:
            scheduleRetry(at: index)
        }
        try? save()
    }

    private func scheduleRetry(at index: Int) {
        items[index].attempts += 1
        let exponent = min(max(items[index].attempts - 1, 0), 16)
        let delay = min(policy.baseDelay * pow(2, Double(exponent)), policy.maxDelay)
        items[index].notBefore = now().addingTimeInterval(delay)
    }

    // MARK: File

    private func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(items).write(to: fileURL, options: .atomic)
    }

    static func load(from url: URL) throws -> [Item] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([Item].self, from: Data(contentsOf: url))
    }
}
