import Dispatch
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Sees the jobs of Swift's global concurrent executor: work in an unstructured `Task { … }`,
/// its child tasks, and the default actors they hop to, none of which runs on the kit's
/// executor.
///
/// The kit's settling knows when work on its own executor is idle. Work a call started in an
/// unstructured task runs elsewhere, and a job of it that is queued but has not run yet leaves
/// no trace: a sync that races each request against a timeout on the injected clock shows its
/// timeout wait while its request is still on its way to the transport, or after the answer,
/// before the task group cancels it (the eighth outside round's second reachability outbox got
/// false Q3, Q4, Q8, Q9 and Q12 verdicts from that). The watch installs the runtime's hook for
/// enqueueing on the global executor, runs each job on the global dispatch queue of its
/// priority (what the default global executor does) and counts it until it returns, so
/// ``runOut(rounds:stop:)`` can wait until every job that was queued has run.
///
/// The hook stays for the life of the process. Jobs then run on the dispatch queues of their
/// priority rather than in the runtime's width-limited pool: a job that blocks its thread gets
/// another one beside it, as with plain dispatch.
///
/// Where the hook cannot be found (a static standard library, a platform without `dlsym`), or
/// another one was installed first, ``current`` is `nil` and settling falls back to barriers;
/// so it is once other code replaces the kit's hook (`withMainSerialExecutor`). Not counted:
/// `Task.yield()` (Swift 6.2 and later enqueue it past the hook), `Task.sleep` wake-ups, actors
/// with executors of their own, and blocks on a `DispatchQueue` (no jobs).
package final class GlobalExecutorWatch: Sendable {
    /// The process's watch, if the kit's hook is installed and still in place.
    package static var current: GlobalExecutorWatch? {
        guard let installed, installed.hookIsInPlace else { return nil }
        return installed
    }

    /// The watch, installed on first use; `nil` where the runtime has no hook for it.
    private static let installed: GlobalExecutorWatch? = install()

    private struct Waiter {
        let ticket: Int64
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        /// The number of the last job queued.
        var lastJob: Int64 = 0
        /// Jobs queued or running, by number.
        var outstanding: Set<Int64> = []
        var waiters: [Waiter] = []
        var nextWaiter = 0
        /// Waiters cancelled before they began to wait.
        var cancelledWaiters: Set<Int> = []
    }

    private let state = Locked(rawValue: State())
    /// The address where the runtime reads its hook, and the kit's hook as stored there.
    private let hookSlot: UInt
    private let hookBits: UInt

    private init(hookSlot: UnsafeMutableRawPointer, hookBits: UInt) {
        self.hookSlot = UInt(bitPattern: hookSlot)
        self.hookBits = hookBits
    }

    /// Whether the runtime still calls the kit's hook.
    private var hookIsInPlace: Bool {
        UnsafeRawPointer(bitPattern: hookSlot)?.load(as: UInt.self) == hookBits
    }

    /// How many jobs are queued or running now: for a watchdog message.
    package var jobsInFlight: Int {
        state.withLock { $0.outstanding.count }
    }

    /// Returns once every job queued on the global executor before the call has run, then
    /// again for the jobs queued meanwhile, until a round in which no job was queued (the
    /// global executor is idle) or `rounds` rounds ran, or `stop` says the caller saw enough
    /// (checked after every round).
    ///
    /// The jobs of the whole process count, other tests' too: beside them a round is seldom
    /// quiet, and the rounds still run every job of the caller's chain, one link per round. A
    /// job that never returns (a thread blocked on a semaphore inside async code) holds the
    /// round until the task is cancelled: the kit's watchdog then names what it waited for.
    /// - Returns: Whether the global executor was seen idle; `false` also when the hook was
    ///   replaced (nothing is counted any more).
    package func runOut(rounds: Int = 16, stop: @Sendable () -> Bool = { false }) async -> Bool {
        for _ in 0..<rounds {
            guard hookIsInPlace else { return false }
            if await round() { return true }
            if stop() || Task.isCancelled { return false }
        }
        return false
    }

    /// One round: returns when every job queued before it has run; `true` when none was queued
    /// while it waited.
    private func round() async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let quiet = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = state.withLock { state in
                    if state.cancelledWaiters.remove(id) != nil { return false }
                    // Nothing queued or running (the caller runs on another executor).
                    if state.outstanding.isEmpty { return true }
                    state.waiters.append(Waiter(ticket: state.lastJob, id: id, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                state.cancelledWaiters.insert(id)
                return nil
            }
            waiter?.continuation.resume(returning: false)
        }
        // A cancellation that came after the round ended leaves its mark: clear it.
        state.withLock { _ = $0.cancelledWaiters.remove(id) }
        return quiet
    }

    fileprivate func enqueue(_ job: UnownedJob) {
        let number = state.withLock { state in
            state.lastJob += 1
            state.outstanding.insert(state.lastJob)
            return state.lastJob
        }
        // The runtime passes the job's priority to dispatch explicitly; so does the watch.
        DispatchQueue.global(qos: Self.qos(job.priority)).async(flags: .enforceQoS) {
            job.runSynchronously(on: Self.genericExecutor)
            self.finished(number)
        }
    }

    private func finished(_ number: Int64) {
        let ready: [(CheckedContinuation<Bool, Never>, Bool)] = state.withLock { state in
            state.outstanding.remove(number)
            guard !state.waiters.isEmpty else { return [] }
            let oldest = state.outstanding.min() ?? state.lastJob + 1
            let last = state.lastJob
            var ready: [(CheckedContinuation<Bool, Never>, Bool)] = []
            state.waiters.removeAll { waiter in
                guard oldest > waiter.ticket else { return false }
                ready.append((waiter.continuation, last == waiter.ticket))
                return true
            }
            return ready
        }
        for (continuation, quiet) in ready { continuation.resume(returning: quiet) }
    }

    /// The dispatch class for a job's priority; unspecified (0) is the default class, as the
    /// runtime's own global executor maps it.
    private static func qos(_ priority: JobPriority) -> DispatchQoS.QoSClass {
        switch priority.rawValue {
        case 26...: .userInteractive
        case 25: .userInitiated
        case 21..<25, 0: .default
        case 17..<21: .utility
        default: .background
        }
    }

    /// The generic executor, `SerialExecutorRef::generic()` in the runtime (two null words): a
    /// job run on it belongs to no actor, as the default global executor runs it.
    private static var genericExecutor: UnownedSerialExecutor {
        unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self)
    }

    private static func install() -> GlobalExecutorWatch? {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        guard let process = dlopen(nil, RTLD_NOW),
            let symbol = dlsym(process, "swift_task_enqueueGlobal_hook")
        else { return nil }
        let slot = symbol.assumingMemoryBound(to: EnqueueHook?.self)
        // Another hook was installed first (a test library's own): left in place, not watched.
        guard slot.pointee == nil else { return nil }
        // A job queued from another thread before this initializer returns waits in the hook
        // for `installed` to be set; nothing here queues one.
        let hook: EnqueueHook = { job, _ in GlobalExecutorWatch.installed.unsafelyUnwrapped.enqueue(job) }
        let watch = GlobalExecutorWatch(hookSlot: symbol, hookBits: unsafeBitCast(hook, to: UInt.self))
        slot.pointee = hook
        return watch
        #else
        return nil
        #endif
    }
}

private typealias OriginalEnqueue = @convention(thin) (UnownedJob) -> Void
private typealias EnqueueHook = @convention(thin) (UnownedJob, OriginalEnqueue) -> Void
