import ConformanceKit

/// The first failing schedule a queue search found: its number in the search, its steps and
/// the rule it broke.
struct QueueSearchHit: Sendable {
    let index: Int
    let steps: [QueueSchedule.Step]
    let invariant: ContractID
}

/// Bounded exhaustive search over queue schedules: every schedule of the alphabet
/// (`QueueScheduleExecution.alphabet`) up to a depth, depth first and iteratively deepened
/// (``DeepeningSearch``). Each prefix runs again on
/// fresh storage (a queue cannot be copied); a prefix whose fingerprint was already explored
/// with at least as many steps left is pruned. The two-step prefixes are the blocks shared out
/// to every core, deepened together (a shortest failing schedule wins, and among the shortest
/// the first by block number), so the result never depends on timing. `budget` bounds the schedules run, shared evenly between the blocks.
enum QueueExhaustiveSearch {
    static func search<A: WriteQueueAdapter>(
        _ adapter: A.Type, depth: Int, options: ExplorationOptions
    ) async -> (explored: Int, steps: Int, hit: QueueSearchHit?) {
        let watchdog = options.watchdog
        let root = await visit([], A.self, watchdog: watchdog)
        if let failure = root.failure {
            // The launch from fresh storage itself failed: report it, never an empty search.
            return (1, 0, QueueSearchHit(index: 0, steps: [], invariant: failure))
        }
        var prefixes: [[QueueSchedule.Step]] = []
        for first in root.next {
            let visited = await visit([first], A.self, watchdog: watchdog)
            if visited.failure != nil || depth < 2 {
                prefixes.append([first])
            } else {
                prefixes += visited.next.map { [first, $0] }
            }
        }
        // Deepened across every subtree at once, so the hit is a shortest schedule.
        let subtrees = prefixes
        let search = await DeepeningSearch<QueueSchedule.Step, ContractID>.search(
            subtrees: subtrees, depth: depth, budget: options.budget, parallelism: options.parallelism
        ) { _, prefix, _ in
            await visit(prefix, A.self, watchdog: watchdog)
        }
        return (
            search.explored, search.steps,
            search.hit.map { QueueSearchHit(index: $0.index, steps: $0.steps, invariant: $0.failure) }
        )
    }

    typealias Visit = DeepeningSearch<QueueSchedule.Step, ContractID>.Visit

    /// Runs `prefix` on fresh storage and reads, when every step held, the steps that can
    /// follow and the fingerprint.
    static func visit<A: WriteQueueAdapter>(
        _ prefix: [QueueSchedule.Step], _ adapter: A.Type, watchdog: Duration
    ) async -> Visit {
        let seen = Locked(rawValue: (next: [QueueSchedule.Step](), fingerprint: 0))
        let crashes = prefix.filter { $0 == .crash }.count
        let replay = await QueueSchedule.replay(
            against: A.self, watchdog: watchdog, steps: prefix.count,
            observe: { execution in
                let tasks = try await execution.harness.tasks()
                let observed = (next: execution.alphabet(crashes: crashes), fingerprint: execution.fingerprint(tasks: tasks))
                seen.withLock { $0 = observed }
            }
        ) { _, index in prefix[index] }
        // What the replay's body saw after the last step (a timeline the watchdog gave up on
        // may still be running, so it is read under the lock).
        let observed = seen.rawValue
        return Visit(failure: replay.invariant, fingerprint: observed.fingerprint, next: observed.next)
    }
}
