// From an outside trial (round four): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation
import Dispatch

public struct SerialQueueFileRequest: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case queued, blocked }
    public var id: String            // file name
    public var tag: String
    public var idempotencyKey: String
    public var body: Data
    public var state: State
    public var attempts: Int
    public var createdAt: Date
    public var retryAfter: Date
    public var note: String?
}

/// Completion-handler outbox in the URLSession style: a serial DispatchQueue owns the state,
/// one JSON file per queued request, retries kept as due dates (exponential, capped at 60 s).
///
/// BUG (deliberate): only 2xx and 409 are handled specially; every other status, 400 included,
/// is retried with backoff, forever.
public final class SerialQueueFileOutbox: @unchecked Sendable {
    public typealias Transport = @Sendable (_ key: String, _ body: Data,
                                            _ completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void

    private let directory: URL
    private let transport: Transport
    private let now: @Sendable () -> Date
    private let backoff = DueTimeBackoffPolicy(base: 1, cap: 60)
    private let queue = DispatchQueue(label: "app.r4.callback-outbox")
    // guarded by `queue`
    private var draining = false
    private var drainWaiters: [@Sendable () -> Void] = []

    public init(directory: URL, now: @escaping @Sendable () -> Date = Date.init, transport: @escaping Transport) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.transport = transport
        self.now = now
    }

    public static func storedRequests(in directory: URL) -> [SerialQueueFileRequest] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return nil }
            return try? JSONDecoder().decode(SerialQueueFileRequest.self, from: data)
        }.sorted { $0.createdAt < $1.createdAt }
    }

    private func write(_ request: SerialQueueFileRequest) {
        let url = directory.appendingPathComponent(request.id + ".json")
        try? JSONEncoder().encode(request).write(to: url, options: .atomic)
    }

    private func delete(_ id: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(id + ".json"))
    }

    public func enqueue(tag: String, body: Data, completion: @escaping @Sendable () -> Void) {
        queue.async {
            let created = self.now()
            self.write(SerialQueueFileRequest(id: UUID().uuidString, tag: tag, idempotencyKey: UUID().uuidString,
                                       body: body, state: .queued, attempts: 0, createdAt: created,
                                       retryAfter: created, note: nil))
            completion()
        }
    }

    /// Sends what is due, one request at a time. A call while a drain runs joins it.
    public func flush(completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.drainWaiters.append(completion)
            guard !self.draining else { return }
            self.draining = true
            self.sendNext(skipping: [])
        }
    }

    /// Runs after every block already queued (a barrier for tests).
    public func waitUntilIdle() { queue.sync {} }

    private func sendNext(skipping tried: Set<String>) {
        dispatchPrecondition(condition: .onQueue(queue))
        let t = now()
        guard var next = Self.storedRequests(in: directory)
            .first(where: { $0.state == .queued && $0.retryAfter <= t && !tried.contains($0.id) })
        else {
            draining = false
            let waiters = drainWaiters
            drainWaiters = []
            waiters.forEach { $0() }
            return
        }
        next.attempts += 1
        write(next)
        let id = next.id
        transport(next.idempotencyKey, next.body) { result in
            self.queue.async {
                self.handle(result, for: id)
                self.sendNext(skipping: tried.union([id]))
            }
        }
    }

    private func handle(_ result: Result<Int, any Error>, for id: String) {
        guard var request = Self.storedRequests(in: directory).first(where: { $0.id == id }) else { return }
        switch result {
        case .success(let status) where (200..<300).contains(status):
            delete(id)
            return
        case .success(409):
            request.state = .blocked
            request.note = "HTTP 409 conflict"
        case .success(let status):
            // BUG: 400/401/403/404/422 are final answers, but they are retried like a 503.
            request.retryAfter = now().addingTimeInterval(backoff.delay(afterAttempt: request.attempts))
            request.note = "HTTP \(status), will retry"
        case .failure:
            request.retryAfter = now().addingTimeInterval(backoff.delay(afterAttempt: request.attempts))
            request.note = "network error, will retry"
        }
        write(request)
    }
}
