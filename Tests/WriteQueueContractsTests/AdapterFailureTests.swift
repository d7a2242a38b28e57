import ConformanceKit
import Foundation
import Testing
import WriteQueueContracts

/// An adapter that throws, fires and forgets, or hangs gets a named failure, never a crash or a
/// hung run.
@Suite("Adapter failures")
struct AdapterFailureTests {
    @Test("A submit that throws is an adapter error")
    func throwingSubmit() async throws {
        let report = try await run("Q6", ThrowingSubmitAdapter.self)
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .adapterError)
        #expect(violation.summary.contains("submit op-1"))
    }

    @Test("A pass that never returns nor parks trips the watchdog, naming what the kit waited for")
    func hangingPass() async throws {
        let report = try await run("Q6", HangingPassAdapter.self, watchdog: .seconds(1))
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .watchdog)
        // The finding names what the kit was waiting for (normally the drive after pass #1;
        // on a loaded machine the limit may pass during an earlier step).
        #expect(violation.summary.contains("while the kit waited for "))
    }

    @Test("Contracts an adapter cannot support are not applicable, never passed")
    func notApplicable() async throws {
        let report = try await run("Q10", MinimalCapabilitiesAdapter.self)
        #expect(report.outcome.word == "skipped")
    }

    private func run<A: WriteQueueAdapter>(
        _ id: ContractID, _ adapter: A.Type, watchdog: Duration = .seconds(10)
    ) async throws -> ContractReport {
        let contract = try #require(WriteQueueContract.named(id))
        return await contract.run(against: adapter, options: RunOptions(watchdog: watchdog))
    }
}

/// An in-memory queue for the failure tests: a list of bodies with keys.
final class ListQueue: @unchecked Sendable {
    let transport: ControlledTransport
    private let lock = NSLockBox()
    private var items: [(key: String, body: Data)] = []
    let stall = AsyncStream<Void>.makeStream()

    init(transport: ControlledTransport) {
        self.transport = transport
    }

    func add(_ body: Data) { lock.run { items.append((UUID().uuidString, body)) } }
    var all: [(key: String, body: Data)] { lock.run { items } }
}

/// The shared parts of the failure tests' adapters: an in-memory list, nothing persisted.
protocol ListQueueAdapter: WriteQueueAdapter where Storage == NSLockBox, Queue == ListQueue {}

extension ListQueueAdapter {
    static var capabilities: QueueCapabilities { QueueCapabilities() }
    static func makeStorage() throws -> NSLockBox { NSLockBox() }
    static func launch(from storage: NSLockBox, environment: QueueEnvironment) async throws -> ListQueue {
        ListQueue(transport: environment.transport)
    }
    static func submit(_ operation: QueueOperation, to queue: ListQueue) async throws { queue.add(operation.body) }
    static func runSendingPass(_ queue: ListQueue) async throws {}
    static func persistedTasks(in storage: NSLockBox) async throws -> [PersistedTask] { [] }
}

/// Declares nothing optional: Q8 and Q10 are not applicable.
enum MinimalCapabilitiesAdapter: ListQueueAdapter {}

/// Rejects every submit.
enum ThrowingSubmitAdapter: ListQueueAdapter {
    struct Rejected: Error {}
    static func submit(_ operation: QueueOperation, to queue: ListQueue) async throws { throw Rejected() }
}

/// A pass that waits on something nobody resumes.
enum HangingPassAdapter: ListQueueAdapter {
    static func runSendingPass(_ queue: ListQueue) async throws {
        for await _ in queue.stall.stream {}
    }
}
