import ConformanceKit
import Testing

/// Tasks started together on the triggers' executor: their first jobs are held until the
/// starting closure returns, then run back to back in start order or on threads of their own,
/// and the executor goes idle once they end.
@Suite struct TriggerExecutorTests {
    @Test(arguments: [FirstJobsRelease.backToBack, .atOnceOnOwnThreads])
    func tasksStartedTogetherAllRunAndTheExecutorGoesIdle(release: FirstJobsRelease) async {
        let executor = TriggerExecutor()
        let ran = Locked(rawValue: [Int]())
        var tasks: [Task<Void, Never>] = []
        let heldWhileStarting = executor.startingTogether(release: release) {
            for index in 0..<3 {
                tasks.append(executor.startTask(priority: .medium) { ran.withLock { $0.append(index) } })
            }
            return ran.withLock { $0.isEmpty }
        }
        for task in tasks { await task.value }
        await executor.waitUntilIdle()

        #expect(heldWhileStarting, "a first job ran before the tasks were all started")
        let order = ran.withLock { $0 }
        #expect(order.sorted() == [0, 1, 2])
        if release == .backToBack { #expect(order == [0, 1, 2], "back to back runs them in start order") }
        #expect(executor.isIdle)
        if executor.isWatching { #expect(executor.enqueuedJobs >= 3) }
    }
}
