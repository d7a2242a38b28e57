import ConformanceKit
import ConformanceTesting
import Foundation
@testable import WriteQueueContracts
import Testing

/// A relaunched queue sends what the crashed launch stored under the key storage holds for it.
/// The thirty-second outside trial's outbox gave every restored entry a fresh key in memory
/// while its journal kept the old one: the explorer caught it only when the entry's first
/// request had left before the crash (two keys among the requests), so whether a drain started
/// by the submit sent before the crash decided between Q3 and a pass.
@Suite struct RelaunchKeyTests {
    /// Submitted, never sent, crashed, relaunched, sent: one key among the requests, but not the
    /// stored one.
    static let schedule: QueueSchedule = [.submit, .crash, .sendingPass]

    @Test func aRestoredTaskSentUnderAKeyStorageNeverHeldIsQ3() async {
        let replay = await Self.schedule.replay(against: RekeyingOutboxAdapter.self, watchdog: .seconds(60))
        #expect(replay.failure == .rule("Q3", tier: .required), "\(replay.report.fullText)")
        let summary = replay.report.outcome.violations.first?.summary ?? ""
        #expect(summary.contains("which storage never held"), "\(summary)")
        #expect(replay.failingIndex == 2, "the pass after the relaunch is the failing step")
    }

    @Test func theSameScheduleOnAQueueThatReadsItsKeysBackPasses() async {
        let replay = await Self.schedule.replay(against: RecyclingOutboxAdapter.self, watchdog: .seconds(60))
        #expect(replay.failure == nil, "\(replay.report.fullText)")
    }
}

/// ``RecyclingOutbox``'s storage, with the trial's bug: each launch keeps the keys in memory,
/// and restores stored rows with fresh ones.
actor RekeyingOutbox {
    private let store: RecyclingStore
    private let transport: ControlledTransport
    private var keys: [String: String] = [:]

    init(store: RecyclingStore, environment: QueueEnvironment) {
        self.store = store
        transport = environment.transport
        for row in store.rows { keys[row.id] = UUID().uuidString }  // the bug: not `row.key`
    }

    func enqueue(_ body: Data) {
        let key = UUID().uuidString
        keys[store.insert(body: body, key: key)] = key
    }

    func flush() async {
        for row in store.rows where row.state == .pending {
            guard let key = keys[row.id] else { continue }
            let status = try? await transport.send(WriteRequest(idempotencyKey: key, body: row.body)).statusCode
            if let status, (200..<300).contains(status) { store.delete(row.id) }
        }
    }
}

enum RekeyingOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities()

    static func makeStorage() throws -> RecyclingStore { RecyclingStore() }

    static func launch(from store: RecyclingStore, environment: QueueEnvironment) async throws -> RekeyingOutbox {
        RekeyingOutbox(store: store, environment: environment)
    }

    static func submit(_ operation: QueueOperation, to outbox: RekeyingOutbox) async throws {
        await outbox.enqueue(operation.body)
    }

    static func runSendingPass(_ outbox: RekeyingOutbox) async throws { await outbox.flush() }

    static func persistedTasks(in store: RecyclingStore) async throws -> [PersistedTask] {
        store.rows.map { PersistedTask(operationID: $0.id, key: $0.key, body: $0.body, status: .pending, attempts: $0.attempts) }
    }
}
