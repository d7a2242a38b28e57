import Dispatch
import Foundation

/// The task executor the kit runs triggers on where it must tell when their work is idle: it
/// counts the jobs it holds, queued or running.
///
/// Structured child tasks (a task group sending several tasks at once, `async let`) and default
/// actors run on the task executor their task prefers, so work still on its way somewhere keeps
/// this executor busy, however long the operating system holds the thread that runs it. Jobs run
/// on Dispatch's global queue, concurrently, as on the default pool (the first jobs of tasks
/// started together, where ``startingTogether(release:_:)`` says). Work that leaves the
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
        /// Jobs kept back while ``WatchedTaskExecutor/startingTogether(release:_:)`` starts tasks.
        var keptBack: [UnownedJob]?
    }

    private let count = Locked(rawValue: Count())
    private let becameIdle: @Sendable () -> Void

    /// Creates an executor that calls `becameIdle` whenever its last job finishes.
    package init(becameIdle: @escaping @Sendable () -> Void = {}) {
        self.becameIdle = becameIdle
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let keptBack = count.withLock { count in
            count.held += 1
            count.enqueued += 1
            count.keptBack?.append(job)
            return count.keptBack != nil
        }
        guard !keptBack else { return }
        DispatchQueue.global().async { self.run(job) }
    }

    /// Calls `start`, which starts tasks on this executor, and then runs the first job of each
    /// of them (up to its first suspension) as `release` says, as a foreground resume and a
    /// background sync start two sending passes in the same instant:
    ///
    /// - ``FirstJobsRelease/backToBack``: one after the other on one thread, in the order they
    ///   were started. Work the first hands to a thread of its own (a block on the app's serial
    ///   `DispatchQueue`) rarely finishes a claim before the second has begun; rarely is not
    ///   never, since on a loaded machine this thread can lose its core to the very thread it
    ///   woke.
    /// - ``FirstJobsRelease/atOnceOnOwnThreads``: each on a new thread of its own, all let go
    ///   at once, so a claim checked and taken in two steps with no suspension between races on
    ///   two cores.
    ///
    /// Q7 starts two passes together many times, both ways by turns: see its figures in
    /// `Docs/WriteQueue.md`.
    package func startingTogether<Result>(
        release: FirstJobsRelease = .backToBack, _ start: () throws -> Result
    ) rethrows -> Result {
        count.withLock { $0.keptBack = [] }
        defer {
            let jobs = count.withLock { count in
                defer { count.keptBack = nil }
                return count.keptBack ?? []
            }
            switch release {
            case .backToBack where !jobs.isEmpty:
                DispatchQueue.global().async { for job in jobs { self.run(job) } }
            case .backToBack:
                break
            case .atOnceOnOwnThreads:
                runAtOnce(jobs)
            }
        }
        return try start()
    }

    /// Runs each job on a new thread of its own; each thread spins until all have started, so
    /// the jobs begin close together. A thread whose peers have not started within a
    /// millisecond (they lost their cores) goes on alone: late, never stuck.
    private func runAtOnce(_ jobs: [UnownedJob]) {
        let arrived = Locked(rawValue: 0)
        for job in jobs {
            let thread = Thread {
                arrived.withLock { $0 += 1 }
                let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000
                while arrived.withLock({ $0 }) < jobs.count, DispatchTime.now().uptimeNanoseconds < deadline {}
                self.run(job)
            }
            thread.name = "conformance: first job started together"
            thread.start()
        }
    }

    /// Runs `job`, and reports the executor idle when it was the last one held.
    private func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
        let waking: [CheckedContinuation<Void, Never>]? = count.withLock { count in
            count.held -= 1
            guard count.held == 0 else { return nil }
            defer { count.idleWaiters = [] }
            return count.idleWaiters
        }
        guard let waking else { return }
        for waiter in waking { waiter.resume() }
        becameIdle()
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
