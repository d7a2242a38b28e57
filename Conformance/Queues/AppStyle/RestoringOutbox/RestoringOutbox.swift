import Foundation

public struct RestoringOutboxItem: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct RestoringOutboxRequest: Sendable {
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public protocol RestoringOutboxTransport: Sendable {
    /// HTTP status code; throws when the connection drops or times out.
    func send(_ request: RestoringOutboxRequest) async throws -> Int
}

/// Outbox whose tasks live in a single JSON array file (`pending-items.json`).
///
/// At launch the app calls `start()`, which reads the file off the actor
/// (asynchronously) and then runs a first sending pass. `submit` may arrive
/// before or during that read: every mutation first awaits the one shared
/// restore, so the in-memory list always contains the restored items before
/// it is written back — the file is never overwritten with a partial list.
public actor RestoringOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "otp"]

    private let fileURL: URL
    private let transport: any RestoringOutboxTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let maxBackoff: Duration

    private var items: [RestoringOutboxItem] = []
    private var restoreTask: Task<Void, any Error>?
    private var restored = false
    private var sending: Set<UUID> = []

    public init(
        directory: URL,
        transport: any RestoringOutboxTransport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        maxBackoff: Duration = .seconds(45)
    ) {
        self.fileURL = directory.appendingPathComponent("pending-items.json")
        self.transport = transport
        self.clock = clock
        self.now = now
        self.maxBackoff = maxBackoff
    }

    // MARK: Lifecycle

    /// App-launch entry point: restore stored items, then try to send them.
    public func start() async throws {
        try await restore()
        await flush()
    }

    /// Idempotent; concurrent callers share one read of the file.
    public func restore() async throws {
        if restored { return }
        if let running = restoreTask {
            try await running.value
            return
        }
        let url = fileURL
        let task = Task<Void, any Error> {
            let loaded = try await Task.detached(priority: .utility) { () throws -> [RestoringOutboxItem] in
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard FileManager.default.fileExists(atPath: url.path) else { return [] }
                return try JSONDecoder().decode([RestoringOutboxItem].self, from: Data(contentsOf: url))
            }.value
            self.finishRestore(loaded)
        }
        restoreTask = task
        do {
            try await task.value
        } catch {
            restoreTask = nil // allow a later retry of the read
            throw error
        }
    }

    private func finishRestore(_ loaded: [RestoringOutboxItem]) {
        guard !restored else { return }
        // Nothing can have been appended before this point (submit awaits restore),
        // but merge defensively by id anyway.
        var merged = loaded
        for item in items where !merged.contains(where: { $0.id == item.id }) {
            merged.append(item)
        }
        items = merged
        restored = true
    }

    // MARK: API

    @discardableResult
    public func submit(_ body: Data) async throws -> UUID {
        let createdAt = now()
        let key = UUID().uuidString
        try await restore()
        let item = RestoringOutboxItem(
            id: UUID(),
            idempotencyKey: key,
            body: body,
            createdAt: createdAt,
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        try save(items + [item])
        items.append(item)
        return item.id
    }

    public func storedItems() async throws -> [RestoringOutboxItem] {
        try await restore()
        return items
    }

    /// One attempt per pending item; an item that failed before waits
    /// min(maxBackoff, 1 s * 2^(attempts-1)) on the clock before its retry.
    public func flush() async {
        do { try await restore() } catch { return }
        for id in items.filter({ $0.status == .pending }).map(\.id) {
            guard !sending.contains(id), let item = items.first(where: { $0.id == id }), item.status == .pending else { continue }
            sending.insert(id)
            defer { sending.remove(id) }

            if item.attempts > 0 {
                do { try await clock.sleep(for: backoff(item.attempts)) } catch { return }
            }
            do {
                try await sendOnce(id)
            } catch {
                return // disk write failed; stop this pass
            }
        }
    }

    private func sendOnce(_ id: UUID) async throws {
        guard var item = items.first(where: { $0.id == id }), item.status == .pending else { return }
        item.attempts += 1
        try replace(item)

        let status: Int
        do {
            status = try await transport.send(RestoringOutboxRequest(
                path: "/items",
                headers: ["Idempotency-Key": item.idempotencyKey, "Content-Type": "application/json"],
                body: item.body
            ))
        } catch {
            return
        }

        switch status {
        case 200..<300:
            try save(items.filter { $0.id != id })
            items.removeAll { $0.id == id }
        case 409:
            item.status = .needsAttention
            item.diagnostic = "409: server already saw key \(item.idempotencyKey) with a different body"
            try replace(item)
        case 408, 429:
            break
        case 400..<500:
            item.status = .needsAttention
            item.diagnostic = "HTTP \(status): request refused, needs attention"
            try replace(item)
        default:
            break
        }
    }

    // MARK: Disk

    private func replace(_ item: RestoringOutboxItem) throws {
        var copy = items
        guard let index = copy.firstIndex(where: { $0.id == item.id }) else { return }
        copy[index] = item
        try save(copy)
        items = copy
    }

    private func save(_ snapshot: [RestoringOutboxItem]) throws {
        precondition(restored, "writing the outbox file before it was restored would drop stored items")
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(snapshot).write(to: fileURL, options: .atomic)
    }

    private func backoff(_ failures: Int) -> Duration {
        var delay = Duration.seconds(1)
        for _ in 1..<max(failures, 1) where delay < maxBackoff {
            delay *= 2
        }
        return min(delay, maxBackoff)
    }
}
