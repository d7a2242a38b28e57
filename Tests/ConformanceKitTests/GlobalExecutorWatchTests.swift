import ConformanceKit
import Testing

/// The watch over the global executor: after ``GlobalExecutorWatch/runOut(rounds:stop:)``, work
/// in an unstructured task has run as far as it can without the caller.
struct GlobalExecutorWatchTests {
    /// An unstructured task that hops 40 times, each hop a job queued on the global executor
    /// (a new `Task { … }` awaited, then a child task in a group, as a drain hops between its
    /// tasks), has finished when the watch has run out: every round runs every job queued
    /// before it, and each job of the chain is queued within a round of the one before. (A
    /// block on a dispatch queue is not a job: the adapter's `waitForPendingWork` covers an
    /// app's own queues.)
    @Test func workInAnUnstructuredTaskHasRunWhenTheWatchRunsOut() async throws {
        let watch = try #require(GlobalExecutorWatch.current, "the runtime's enqueue hook was not found")
        let hops = Locked(rawValue: 0)
        Task.detached {
            for _ in 0..<20 {
                await Task { hops.withLock { $0 += 1 } }.value
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { hops.withLock { $0 += 1 } }
                }
            }
        }
        // Not `idle`: tests running beside this one keep the global executor busy.
        _ = await watch.runOut(rounds: 200)
        #expect(hops.withLock { $0 } == 40)
    }

    /// A caller that saw what it waited for stops the rounds after the first.
    @Test func stopEndsTheRounds() async throws {
        let watch = try #require(GlobalExecutorWatch.current)
        let rounds = Locked(rawValue: 0)
        let endless = Task.detached {
            while !Task.isCancelled { await Task { }.value }
        }
        let idle = await watch.runOut(rounds: 200) {
            rounds.withLock { $0 += 1 }
            return true
        }
        endless.cancel()
        #expect(!idle)
        #expect(rounds.withLock { $0 } == 1)
    }
}
