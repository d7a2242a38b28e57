@testable import BundledImplementations
import ConformanceKit
import Foundation
import Testing
import WriteQueueContracts

/// A queue that keeps resending a task whose answer the declaration makes final, and sends its
/// next task only after it (one post's comments in order), fails that answer's rule and blocks
/// the contract that waits for the next task. The thirty-second outside trial's correct outbox,
/// declared by mistake with the source document's profile (409 = the key was reused), retried
/// its 409s as its API says ("still processing"), and Q10 failed beside Q4: "no pass sent it".
@Suite("A final answer resent blocks the contract waiting behind it")
struct FinalAnswerBlocksTests {
    @Test func q4FailsAndQ10IsBlockedByIt() async {
        let q4 = await WriteQueueContract.contract("Q4")!.run(against: CommentOutboxDefaultProfileAdapter.self)
        #expect(q4.outcome.violations.count == 1, "\(q4.fullText)")
        let q10 = await WriteQueueContract.contract("Q10")!.run(against: CommentOutboxDefaultProfileAdapter.self)
        guard case .blocked(let rule, let violation) = q10.outcome else {
            Issue.record("Q10 was not blocked: \(q10.fullText)")
            return
        }
        #expect(rule == "Q4")
        #expect(violation.summary.contains("kept sending op-2 after its 409"), "\(violation.summary)")
    }
}

/// ``CommentOutboxAdapter`` declared with the default conflict profile.
enum CommentOutboxDefaultProfileAdapter: WriteQueueAdapter {
    static let capabilities: QueueCapabilities = {
        var capabilities = CommentOutboxAdapter.capabilities
        capabilities.conflictProfile = .sourceDocument
        capabilities.retryableStatusCodes = [408, 429]
        return capabilities
    }()

    static func makeStorage() throws -> URL { try CommentOutboxAdapter.makeStorage() }
    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> CommentOutbox {
        try await CommentOutboxAdapter.launch(from: directory, environment: environment)
    }
    static func submit(_ operation: QueueOperation, to outbox: CommentOutbox) async throws {
        try await CommentOutboxAdapter.submit(operation, to: outbox)
    }
    static func runSendingPass(_ outbox: CommentOutbox) async throws { try await CommentOutboxAdapter.runSendingPass(outbox) }
    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try await CommentOutboxAdapter.persistedTasks(in: directory)
    }
    static func diagnostics(of outbox: CommentOutbox, storage: URL) async -> [String] {
        await CommentOutboxAdapter.diagnostics(of: outbox, storage: storage)
    }
    static func discardStorage(_ directory: URL) { CommentOutboxAdapter.discardStorage(directory) }
}
