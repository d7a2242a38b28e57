import Foundation
import WriteQueueContracts

/// The app's transport protocol, answered by the kit's transport.
struct KitCommentTransport: CommentOutboxTransport {
    let transport: ControlledTransport

    func send(_ request: CommentOutgoingRequest) async throws -> CommentResponse {
        let answer = try await transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
        return CommentResponse(statusCode: answer.statusCode, body: answer.body)
    }
}

/// A deterministic jitter source (SplitMix64), so the kit's verdicts do not depend on luck: the
/// trial's own, seeded with the launch number.
final class CommentOutboxSeededRandom: @unchecked Sendable {
    private var state: UInt64
    private let lock = NSLock()

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    func next() -> Double {
        lock.lock()
        defer { lock.unlock() }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

/// The thirty-second trial's adapter around its `CommentOutbox` (see `README.md`), as written
/// but for the names.
enum CommentOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        conflictProfile: .ietfDraft,  // the app's API: 409 = "still processing this key", retry; 422 = key reused
        retryableStatusCodes: [408, 409, 429],
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(120)),  // CommentOutbox.Configuration.maxDelay
        sendsOnLaunch: true,  // start() flushes at launch
        requestTimeout: .seconds(60))  // URLSession's default; the outbox has no timeout of its own

    static func makeStorage() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("comment-outbox-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> CommentOutbox {
        let outbox = try CommentOutbox(
            directory: directory,
            transport: KitCommentTransport(transport: environment.transport),
            clock: environment.clock,
            now: environment.now,
            random: CommentOutboxSeededRandom(seed: UInt64(environment.launch)).next)
        await outbox.start()
        return outbox
    }

    static func submit(_ operation: QueueOperation, to outbox: CommentOutbox) async throws {
        try await outbox.enqueue(action(for: operation), localID: operation.id)
    }

    static func runSendingPass(_ outbox: CommentOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try CommentOutbox.readJournal(in: directory).map { entry in
            PersistedTask(
                operationID: entry.localID ?? entry.entryID,
                key: entry.idempotencyKey,
                body: entry.body,
                // A rejected entry left the send queue, but the app keeps it for the UI
                // ("Couldn't post: edit / discard") until the user dismisses it.
                status: entry.state == .rejected ? .needsAttention : .pending,
                attempts: entry.attempts,
                createdAt: String(entry.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: entry.state == .rejected
                    ? "HTTP \(entry.statusCode ?? 0)\(entry.errorCode.map { " \($0)" } ?? "")" : nil)
        }
    }

    static func diagnostics(of outbox: CommentOutbox, storage: URL) async -> [String] {
        await outbox.diagnosticLog
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The kit's creates become comments spread over two posts (so the per-post order and the
    /// three-at-a-time window are both exercised); its updates of an entity become edits of
    /// that comment, all on one post.
    static func action(for operation: QueueOperation) -> CommentOutboxAction {
        switch operation.kind {
        case .create:
            let lane = operation.id.utf8.reduce(0) { $0 &+ Int($1) } % 2
            return .postComment(postID: "post-\(lane)", payload: operation.body)
        case .update(let entity):
            return .editComment(postID: "post-of-\(entity)", commentID: entity, payload: operation.body)
        }
    }
}
