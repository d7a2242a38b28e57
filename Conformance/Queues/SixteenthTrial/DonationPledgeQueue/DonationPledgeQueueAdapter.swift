import WriteQueueContracts
import Foundation

/// Kit adapter for `DonationPledgeQueue` (a `@MainActor` class over one JSON file, a
/// completion-handler API client bridged into its flush, due times in the pledges, a log for
/// the support screen with payment fields masked).
///
/// Registered like the quick start's queue:
/// `@Test(arguments: WriteQueueContract.all(for: DonationPledgeQueueAdapter.self))`
/// `func donationPledgeQueueConforms(_ c: WriteQueueContract) async { await c.check(DonationPledgeQueueAdapter.self) }`
enum DonationPledgeQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(20)),  // RetryPolicy(): base 1 s, cap 20 s
        sensitiveFields: ["card", "cardNumber", "cvv"])  // all in PaymentRedactor.sensitiveKeys

    /// The app's client protocol over the kit's transport, called back from the kit's thread.
    struct KitPledgeClient: PledgeAPIClient {
        let transport: ControlledTransport

        func submitPledge(
            idempotencyKey: String, json: Data,
            completion: @escaping @Sendable (Result<Int, any Error>) -> Void
        ) {
            transport.send(WriteRequest(idempotencyKey: idempotencyKey, body: json)) { result in
                completion(result.map(\.statusCode))
            }
        }
    }

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("DonationPledgeQueue-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> DonationPledgeQueue {
        let client = KitPledgeClient(transport: environment.transport)
        return try await DonationPledgeQueue(directory: directory, client: client, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: DonationPledgeQueue) async throws {
        try await queue.add(label: operation.id, json: operation.body)
    }

    static func runSendingPass(_ queue: DonationPledgeQueue) async throws {
        await queue.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try DonationPledgeQueue.storedPledges(in: directory).map { pledge in
            PersistedTask(
                operationID: pledge.label,
                key: pledge.idempotencyKey,
                body: pledge.json,
                status: pledge.status == .waiting ? .pending : .needsAttention,
                attempts: pledge.attempts,
                createdAt: String(pledge.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: pledge.reviewReason)
        }
    }

    static func diagnostics(of queue: DonationPledgeQueue, storage: URL) async -> [String] {
        await queue.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
