import ConformanceKit
import Foundation
import Testing
import WriteQueueContracts

/// A queue whose claim set lives inside its in-memory store object, which stands for the disk
/// and so survives the kit's crash: the shape that made every correct queue with in-memory
/// claims fail Q1 and Q3. With `forgetProcessMemory(in:)` clearing the claims, as a real process
/// death would, the same queue passes; without it, the relaunch finds the task claimed.
@Suite("A crash wipes what the adapter says lives in process memory")
struct ProcessMemoryTests {
    final class ClaimingStore: Sendable {
        struct Row {
            let id: String
            let key: String
            let body: Data
        }
        private let rows = Locked<[Row]>(rawValue: [])
        /// Send claims: process memory, although they sit in the store object.
        private let claims = Locked<Set<String>>(rawValue: [])

        var all: [Row] { rows.rawValue }
        func add(_ row: Row) { rows.withLock { $0.append(row) } }
        func remove(_ key: String) { rows.withLock { $0.removeAll { $0.key == key } } }
        func claim(_ key: String) -> Bool { claims.withLock { $0.insert(key).inserted } }
        func release(_ key: String) { _ = claims.withLock { $0.remove(key) } }
        func forgetClaims() { claims.withLock { $0 = [] } }
    }

    actor ClaimingQueue {
        let store: ClaimingStore
        let transport: ControlledTransport

        init(store: ClaimingStore, transport: ControlledTransport) {
            self.store = store
            self.transport = transport
        }

        func submit(_ operation: QueueOperation) {
            store.add(.init(id: operation.id, key: UUID().uuidString, body: operation.body))
        }

        func flush() async {
            for row in store.all where store.claim(row.key) {
                defer { store.release(row.key) }
                let response = try? await transport.send(WriteRequest(idempotencyKey: row.key, body: row.body))
                if response?.isSuccess == true { store.remove(row.key) }
            }
        }
    }

    enum ForgettingAdapter: WriteQueueAdapter {
        static let capabilities = QueueCapabilities()
        static func makeStorage() throws -> ClaimingStore { ClaimingStore() }
        static func launch(from store: ClaimingStore, environment: QueueEnvironment) async throws -> ClaimingQueue {
            ClaimingQueue(store: store, transport: environment.transport)
        }
        static func submit(_ operation: QueueOperation, to queue: ClaimingQueue) async throws {
            await queue.submit(operation)
        }
        static func runSendingPass(_ queue: ClaimingQueue) async throws { await queue.flush() }
        static func persistedTasks(in store: ClaimingStore) async throws -> [PersistedTask] {
            store.all.map { PersistedTask(operationID: $0.id, key: $0.key, body: $0.body, status: .pending, attempts: 0) }
        }
        static func forgetProcessMemory(in store: ClaimingStore) async { store.forgetClaims() }
    }

    enum RememberingAdapter: WriteQueueAdapter {
        static let capabilities = QueueCapabilities()
        static func makeStorage() throws -> ClaimingStore { ClaimingStore() }
        static func launch(from store: ClaimingStore, environment: QueueEnvironment) async throws -> ClaimingQueue {
            ClaimingQueue(store: store, transport: environment.transport)
        }
        static func submit(_ operation: QueueOperation, to queue: ClaimingQueue) async throws {
            await queue.submit(operation)
        }
        static func runSendingPass(_ queue: ClaimingQueue) async throws { await queue.flush() }
        static func persistedTasks(in store: ClaimingStore) async throws -> [PersistedTask] {
            store.all.map { PersistedTask(operationID: $0.id, key: $0.key, body: $0.body, status: .pending, attempts: 0) }
        }
    }

    @Test("With the hook, a crash frees the claim and the relaunch replays the task", arguments: ["Q1", "Q3"] as [ContractID])
    func hookFreesClaims(_ id: ContractID) async {
        let report = await WriteQueueContract.contract(id)!.run(against: ForgettingAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
    }

    @Test("Without it, the claim outlives the crash and the replay never comes")
    func claimOutlivesCrashWithoutHook() async {
        let report = await WriteQueueContract.contract("Q3")!.run(against: RememberingAdapter.self)
        #expect(report.outcome.word == "failed")
        #expect(report.outcome.violations.first?.hint?.contains("forgetProcessMemory") == true)
    }
}
