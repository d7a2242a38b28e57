import Foundation
import WriteQueueContracts

/// The outbox's transport, answered by the kit's controlled transport.
struct BuggyCommentKitTransport: BuggyCommentTransport {
    let transport: ControlledTransport

    func send(_ request: BuggyCommentRequest) async throws -> BuggyCommentResponse {
        let answer = try await transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
        return BuggyCommentResponse(statusCode: answer.statusCode, body: answer.body)
    }
}

/// A seeded jitter source (xorshift64*), so every run draws the same delays; seeded with the
/// launch number.
final class BuggyCommentSeededRandom: @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64

    init(seed: UInt64) {
        // Mix the seed so that small launch numbers start far apart; xorshift needs a non-zero state.
        var mixed = (seed &+ 0x2545_F491_4F6C_DD1D) &* 0xD6E8_FEB8_6659_FD93
        mixed ^= mixed >> 32
        state = mixed == 0 ? 0x9E37_79B9_7F4A_7C15 : mixed
    }

    func next() -> Double {
        lock.lock()
        defer { lock.unlock() }
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let value = state &* 0x2545_F491_4F6C_DD1D
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }
}

/// The adapter around `BuggyCommentOutbox`: a comment outbox written again from its bug's
/// description, whose relaunch restores every entry with a fresh key in memory.
enum BuggyCommentOutboxAdapter: WriteQueueAdapter {
    /// The correct outbox's declarations and storage: the same app, the same API.
    static var capabilities: QueueCapabilities { CommentOutboxAdapter.capabilities }

    static func makeStorage() throws -> URL { try CommentOutboxAdapter.makeStorage() }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> BuggyCommentOutbox {
        let outbox = try BuggyCommentOutbox(
            directory: directory,
            transport: BuggyCommentKitTransport(transport: environment.transport),
            clock: environment.clock,
            now: environment.now,
            random: BuggyCommentSeededRandom(seed: UInt64(environment.launch)).next)
        await outbox.start()
        return outbox
    }

    static func submit(_ operation: QueueOperation, to outbox: BuggyCommentOutbox) async throws {
        try await outbox.enqueue(action(for: operation), localID: operation.id)
    }

    static func runSendingPass(_ outbox: BuggyCommentOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try BuggyCommentOutbox.readJournal(in: directory).map { entry in
            PersistedTask(
                operationID: entry.localID ?? entry.entryID,
                key: entry.idempotencyKey,
                body: entry.body,
                // Rejected entries stay for the UI until the user edits or discards them.
                status: entry.state == .rejected ? .needsAttention : .pending,
                attempts: entry.attempts,
                createdAt: String(entry.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: entry.state == .rejected ? "HTTP \(entry.statusCode ?? 0)" : nil)
        }
    }

    static func diagnostics(of outbox: BuggyCommentOutbox, storage: URL) async -> [String] {
        await outbox.diagnosticLog
    }

    static func discardStorage(_ directory: URL) { CommentOutboxAdapter.discardStorage(directory) }

    /// Creates become new comments spread over two posts (so both the one-per-post rule and the
    /// three-at-a-time window are exercised); updates of an entity become edits of that
    /// comment, all on its own post.
    static func action(for operation: QueueOperation) -> BuggyCommentAction {
        switch operation.kind {
        case .create:
            let lane = operation.id.utf8.reduce(0) { $0 &+ Int($1) } % 2
            return .postComment(postID: "post-\(lane)", body: operation.body)
        case .update(let entity):
            return .editComment(postID: "post-of-\(entity)", commentID: entity, body: operation.body)
        }
    }
}
