import Foundation

// Queue B: a main-actor sync engine over a completion-handler HTTP client.

public struct HTTPRequestValue: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data

    public init(method: String, path: String, headers: [String: String], body: Data) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponseValue: Sendable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The app's networking layer: calls back on its own serial callback queue.
public protocol CallbackHTTPClient: Sendable {
    func send(_ request: HTTPRequestValue, completion: @escaping @Sendable (Result<HTTPResponseValue, any Error>) -> Void)
}

/// A write waiting to reach the server. Its `id` doubles as the idempotency key.
public struct PendingWrite: Codable, Sendable, Equatable {
    public enum Status: Codable, Sendable, Equatable {
        case queued
        case needsReview(reason: String)
    }

    public let id: String
    public let path: String
    public let payload: Data
    public let sourceID: String
    public let createdAt: Date
    public var attempts: Int
    public var status: Status
}

/// Where pending writes are kept between launches (a keychain item, a defaults key, a file…).
public protocol PendingWriteStorage: Sendable {
    func loadPendingWrites() throws -> [String: PendingWrite]
    func savePendingWrites(_ writes: [String: PendingWrite]) throws
}

@MainActor
public final class SyncEngine {
    public nonisolated static let idempotencyHeader = "Idempotency-Key"

    private let storage: any PendingWriteStorage
    private let client: any CallbackHTTPClient
    private let now: @Sendable () -> Date
    private var writes: [String: PendingWrite]
    /// Writes whose request is on the wire right now (this process only).
    private var inFlight: Set<String> = []
    /// Status codes the API documents as "try again later with the same key".
    /// 401 is retried after the session layer refreshed the token.
    private let retryableClientErrors: Set<Int> = [401, 408, 429]

    public init(storage: any PendingWriteStorage, client: any CallbackHTTPClient, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.storage = storage
        self.client = client
        self.now = now
        self.writes = try storage.loadPendingWrites()
    }

    public var pendingWrites: [PendingWrite] {
        writes.values.sorted { $0.createdAt > $1.createdAt }
    }

    @discardableResult
    public func enqueue(path: String, payload: Data, sourceID: String) throws -> PendingWrite {
        let write = PendingWrite(
            id: UUID().uuidString, path: path, payload: payload, sourceID: sourceID,
            createdAt: now(), attempts: 0, status: .queued)
        writes[write.id] = write
        do {
            try storage.savePendingWrites(writes)
        } catch {
            writes[write.id] = nil
            throw error
        }
        return write
    }

    /// Sends queued writes one after another, newest first, and calls `completion` when this
    /// sync has nothing left to send. Each write is attempted at most once per sync.
    public func syncNow(completion: (@MainActor () -> Void)? = nil) {
        sendNext(skipping: [], completion: completion)
    }

    private func sendNext(skipping attempted: Set<String>, completion: (@MainActor () -> Void)?) {
        let candidates = writes.values.filter {
            $0.status == .queued && !inFlight.contains($0.id) && !attempted.contains($0.id)
        }
        guard let write = candidates.max(by: { $0.createdAt < $1.createdAt }) else {
            completion?()
            return
        }
        inFlight.insert(write.id)
        let request = HTTPRequestValue(
            method: "POST", path: write.path,
            headers: [Self.idempotencyHeader: write.id, "Content-Type": "application/json"],
            body: write.payload)
        client.send(request) { result in
            Task { @MainActor in
                self.handle(result, for: write.id)
                self.sendNext(skipping: attempted.union([write.id]), completion: completion)
            }
        }
    }

    private func handle(_ result: Result<HTTPResponseValue, any Error>, for id: String) {
        inFlight.remove(id)
        guard var write = writes[id] else { return }
        write.attempts += 1
        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            writes[id] = nil
        case .success(let response) where response.statusCode == 409:
            write.status = .needsReview(reason: "Conflict (409): this change was already used for different data")
            writes[id] = write
        case .success(let response) where retryableClientErrors.contains(response.statusCode) || response.statusCode >= 500:
            writes[id] = write  // try again on the next sync
        case .success(let response) where (400..<500).contains(response.statusCode):
            write.status = .needsReview(reason: "Rejected by the server (\(response.statusCode))")
            writes[id] = write
        case .success, .failure:
            writes[id] = write  // unknown outcome: keep it, same key
        }
        try? storage.savePendingWrites(writes)
    }
}
