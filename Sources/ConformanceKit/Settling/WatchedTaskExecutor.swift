import Dispatch

/// The task executor the kit runs triggers on where it must tell when their work is idle: it
/// counts the jobs it holds, queued or running.
///
/// Structured child tasks (a task group sending several tasks at once, `async let`) and default
/// actors run on the task executor their task prefers, so work still on its way somewhere keeps
/// this executor busy, however long the operating system holds the thread that runs it. Jobs run
/// on Dispatch's global queue, concurrently, as on the default pool. Work that leaves the
/// executor (the main actor, an app's own `DispatchQueue`, an unstructured `Task`) is not seen
/// here.
///
/// The queue half runs every trigger on one (a sending pass with one request parked and another
/// child still running is not settled); the pager half runs the triggers that start on the top
/// priority rung on one, where no probe can reach them (see `TimelineScheduler`).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package final class WatchedTaskExecutor: TaskExecutor, Sendable {
    private struct Count {
        var held = 0
        var enqueued = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let count = Locked(rawValue: Count())
    private let becameIdle: @Sendable () -> Void

    /// Creates an executor that calls `becameIdle` whenever its last job finishes.
    package init(becameIdle: @escaping @Sendable () -> Void = {}) {
        self.becameIdle = becameIdle
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        count.withLock {
            $0.held += 1
            $0.enqueued += 1
        }
        DispatchQueue.global().async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            let waking: [CheckedContinuation<Void, Never>]? = self.count.withLock { count in
                count.held -= 1
                guard count.held == 0 else { return nil }
                defer { count.idleWaiters = [] }
                return count.idleWaiters
            }
            guard let waking else { return }
            for waiter in waking { waiter.resume() }
            self.becameIdle()
        }
    }

    /// Whether no job is queued or running.
    package var isIdle: Bool { count.withLock { $0.held == 0 } }

    /// How many jobs were ever enqueued: a change between two reads means a task moved.
    package var enqueuedJobs: Int { count.withLock { $0.enqueued } }

    /// Returns once no job is queued or running.
    package func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = count.withLock { count in
                if count.held == 0 { return true }
                count.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}
