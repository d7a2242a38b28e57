import Dispatch

/// A task executor that counts the jobs it holds, so settling can tell when the tasks that
/// prefer it have stopped moving: no job queued or running.
///
/// A trigger that starts on the top task priority cannot be probed (no priority is left above
/// it), and once the load it spawned parked, its own task's next steps (resume after an
/// `await`, read a property, await the load at the same priority) are jobs that raise no event.
/// Run on this executor, those jobs are counted: the kit takes such a trigger as blocked on its
/// load only once the count is zero, however long the operating system holds the thread that
/// runs them. Code isolated to the main actor or to an actor with its own executor still runs
/// there; the main queue is drained separately (see ``drainMainQueue()``).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package final class WatchedTaskExecutor: TaskExecutor {
    private struct Count {
        var held = 0
        var enqueued = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let count = Locked(rawValue: Count())
    private let queue = DispatchQueue(
        label: "conformance-kit.watched-task-executor", attributes: .concurrent)

    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        count.withLock {
            $0.held += 1
            $0.enqueued += 1
        }
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            let waking: [CheckedContinuation<Void, Never>] = self.count.withLock { count in
                count.held -= 1
                guard count.held == 0 else { return [] }
                defer { count.idleWaiters = [] }
                return count.idleWaiters
            }
            for waiter in waking { waiter.resume() }
        }
    }

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
