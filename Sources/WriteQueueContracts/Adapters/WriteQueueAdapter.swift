import Foundation

/// A small adapter between the kit and a team's own offline write queue.
///
/// The kit drives the queue through these calls: it makes a storage, launches a queue from it
/// with the kit's transport and clock, submits operations, runs sending passes, reads back what
/// the storage holds, and crashes the app by dropping the queue instance without any shutdown
/// and launching a new one from the same storage.
///
/// ```swift
/// enum OutboxAdapter: WriteQueueAdapter {
///     static let capabilities = QueueCapabilities(exposesDiagnostics: true, backoff: .capped(at: .seconds(16)))
///
///     static func makeStorage() throws -> OutboxStore { OutboxStore() }
///
///     static func launch(from store: OutboxStore, environment: QueueEnvironment) async throws -> Outbox {
///         Outbox(store: store, send: { key, body in
///             let response = try await environment.transport.send(WriteRequest(idempotencyKey: key, body: body))
///             return response.statusCode
///         }, clock: environment.clock)
///     }
///
///     static func submit(_ operation: QueueOperation, to outbox: Outbox) async throws {
///         await outbox.enqueue(id: operation.id, body: operation.body)
///     }
///
///     static func runSendingPass(_ outbox: Outbox) async throws { await outbox.flush() }
///
///     static func persistedTasks(in store: OutboxStore) async throws -> [PersistedTask] {
///         store.items.map { PersistedTask(operationID: $0.id, key: $0.key, body: $0.body,
///                                         status: $0.isStuck ? .needsAttention : .pending,
///                                         attempts: $0.attempts) }
///     }
/// }
/// ```
///
/// ## Conforming to WriteQueueAdapter
///
/// Map each call onto the queue as the app uses it; do not add behaviour the queue lacks. The
/// kit then checks these laws (see ``WriteQueueContract``):
///
/// - **Q1 persist before send**: after `submit` returns, and whenever the first request of a
///   task reaches the transport, `persistedTasks(in:)` shows the task with its key; a relaunch
///   sends it with that key.
/// - **Q2 unknown outcome keeps the task**: after a disconnect, a timeout or a 5xx the task is
///   still pending with the same operation ID, key, body and creation time.
/// - **Q3 replay after crash**: a write the server committed but whose answer was lost is
///   resent after a relaunch with the same key and the same bytes, and completes.
/// - **Q4 409 stops** (or, in the IETF profile, 409 retries and 422 stops).
/// - **Q5 success-only completion**: only a 2xx completes or removes a task.
/// - **Q6 new action, new key**: two submits are two tasks with two keys.
/// - **Q7 single sender**: two passes started together never send one task twice at once.
/// - **Q8 capped backoff keeps identity**: retries wait (on the injected clock, or as a due time
///   read through ``QueueEnvironment/now``) a positive delay, growing, fixed or randomised, that
///   never exceeds the cap ``QueueCapabilities/backoff`` declares.
/// - **Q9 other client errors by contract**: 4xx statuses follow the declared classification;
///   400 and 422 are always terminal.
/// - **Q10 no sensitive data in diagnostics**: no diagnostic or log line holds a sensitive value.
/// - **Q11 restore never displaces** (recommended) and **Q12 coalescing keeps the latest
///   body** (recommended).
///
/// Writing one: an adapter declared `public` (so another module can list it) needs every
/// requirement `public` too. A `@MainActor` queue is adapted with plain `await` calls
/// (`await MyOutbox(…)`, `try await outbox.submit(…)`) from the adapter's nonisolated static
/// methods; constants the main actor isolates cannot be read in `capabilities`, so repeat the
/// literal there. The queue may use its own operation IDs: the kit recognises a task by its ID
/// when it adopts ``QueueOperation/id``, else by its body as a JSON value.
///
/// Settling: the kit knows a call is done when it has returned, or when its work is parked at
/// the transport or waiting on the clock. Work a call leaves running (a drain started in a
/// `Task`, a retry timer, a worker loop) is the queue's own: the clock holds its waits and plays
/// each as a sending pass at its deadline, and a request it sends after every call of its
/// instance returned gets a pass too, so `runSendingPass` must join that work or do the same
/// (a `flush()` that awaits a running drain). A wait begun outside every call (a detached task)
/// is an adapter error. Every wait must be on ``QueueEnvironment/clock`` and must end when the
/// task is cancelled: the kit cancels everything still running when a timeline ends.
public protocol WriteQueueAdapter: Sendable {
    /// A value that survives a crash: a directory URL, an in-memory store object.
    associatedtype Storage: Sendable
    /// One live queue instance (an app process's queue).
    associatedtype Queue: Sendable

    /// What the queue supports; contracts it cannot express are skipped with a reason.
    static var capabilities: QueueCapabilities { get }

    /// Makes empty storage for one contract run (a fresh temporary directory, a new store).
    /// - Throws: When the storage cannot be created; reported as an adapter error.
    static func makeStorage() throws -> Storage

    /// Launches a queue instance from `storage`, as an app launch (or relaunch after a crash)
    /// would.
    /// - Parameters:
    ///   - storage: The storage made by ``makeStorage()``, possibly left by a crashed instance.
    ///   - environment: The transport to send through and the clock to wait on.
    /// - Returns: The live queue.
    static func launch(from storage: Storage, environment: QueueEnvironment) async throws -> Queue

    /// Submits one user operation: the user tapped "Create".
    /// - Parameters:
    ///   - operation: The body (and kind) the kit chose.
    ///   - queue: The live queue.
    static func submit(_ operation: QueueOperation, to queue: Queue) async throws

    /// Runs one sending pass: returns when the pass is finished, or stays suspended while its
    /// request is parked at the transport or it waits on the clock.
    /// - Parameter queue: The live queue.
    /// - Throws: A pass may throw (a transport error it passes on); the kit only notes it.
    static func runSendingPass(_ queue: Queue) async throws

    /// Reads the tasks the storage holds right now, in the queue's order.
    /// - Parameter storage: The storage, read directly: what a crash would leave.
    static func persistedTasks(in storage: Storage) async throws -> [PersistedTask]

    /// Diagnostics and log lines the queue has produced (Q10 checks them). Defaults to none.
    /// - Parameters:
    ///   - queue: The live queue.
    ///   - storage: Its storage.
    static func diagnostics(of queue: Queue, storage: Storage) async -> [String]

    /// Removes the storage after the run (a temporary directory). Defaults to doing nothing.
    static func discardStorage(_ storage: Storage)

    /// Wipes what a process death wipes from `storage`: called when the kit crashes the app,
    /// after it dropped every queue instance and before it launches the next one.
    ///
    /// A real crash frees the process's memory. The kit cannot free a dropped instance whose
    /// request is parked at the transport (its task holds it), and an in-memory storage value
    /// stands for the disk and survives on purpose. If the queue keeps anything in memory inside
    /// `storage` (send leases or claims, a cache, a lease table keyed by weak owners), clear it
    /// here, and only that: durable records stay. Defaults to doing nothing (files and records
    /// need nothing).
    /// - Parameter storage: The storage the next launch starts from.
    static func forgetProcessMemory(in storage: Storage) async

    /// Returns once the work `queue` has enqueued on its own `DispatchQueue` so far has run: for
    /// a queue that sends from blocks on a serial queue of its own, where the kit's task-local
    /// tags and executor do not reach.
    ///
    /// The kit calls it before it concludes that nothing more is coming (a second request of the
    /// same pass, the handling of an answer), and again until a call sees nothing move. Call any
    /// method of the queue that runs `queue.sync { … }`: on a serial queue that is a barrier.
    /// Defaults to returning at once (async/await and actor-based queues need nothing).
    ///
    /// Implement it to have a pass that never goes on found stalled (Q2, after a cancelled
    /// request) at once: the kit concludes that only when this barrier sees nothing move. With
    /// the default, work may still be running on threads the kit cannot see (an
    /// `OperationQueue`), and such a pass is left to the watchdog, which names what it waited for.
    /// - Parameter queue: A live queue instance.
    static func waitForPendingWork(in queue: Queue) async
}

extension WriteQueueAdapter {
    /// No diagnostics.
    public static func diagnostics(of queue: Queue, storage: Storage) async -> [String] { [] }

    /// Nothing to remove.
    public static func discardStorage(_ storage: Storage) {}

    /// Nothing lives in process memory inside the storage.
    public static func forgetProcessMemory(in storage: Storage) async {}

    /// No work of the queue's own runs outside Swift concurrency.
    public static func waitForPendingWork(in queue: Queue) async { PendingWorkBarrier.noteDefault() }
}
