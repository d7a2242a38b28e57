import ConformanceKit
import Dispatch

/// The task executor the kit runs a queue's triggers on, so it can tell when their work is
/// idle: no job of theirs is queued or running.
///
/// Structured child tasks (a task group sending several tasks at once, `async let`) and default
/// actors run on the task executor their task prefers, so a sending pass whose children are
/// still on their way to the transport keeps this executor busy. Settling waits for idle as well
/// as for evidence per trigger: a pass with one request parked and another child still running
/// is not settled. Jobs run on Dispatch's global queue, concurrently, as on the default pool.
/// Work that leaves the executor (the main actor, an app's own `DispatchQueue`, an unstructured
/// `Task`) is not seen here; the per-trigger evidence covers it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class TriggerExecutor: TaskExecutor, Sendable {
    /// How many jobs are queued or running.
    private let active = Locked(rawValue: 0)
    private let becameIdle: @Sendable () -> Void

    /// Creates an executor that calls `becameIdle` whenever its last job finishes.
    init(becameIdle: @escaping @Sendable () -> Void) {
        self.becameIdle = becameIdle
    }

    /// Whether no job is queued or running.
    var isIdle: Bool { active.rawValue == 0 }

    func enqueue(_ job: consuming ExecutorJob) {
        active.withLock { $0 += 1 }
        let job = UnownedJob(job)
        DispatchQueue.global().async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            let idle = self.active.withLock { active in
                active -= 1
                return active == 0
            }
            if idle { self.becameIdle() }
        }
    }
}
