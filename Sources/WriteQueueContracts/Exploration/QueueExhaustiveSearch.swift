import ConformanceKit

/// The first failing schedule a queue search found: its number in the search, its steps and
/// the rule it broke.
struct QueueSearchHit: Sendable {
    let index: Int
    let steps: [QueueSchedule.Step]
    let invariant: ContractID
}

/// Bounded exhaustive search over queue schedules: every schedule of the alphabet
/// (`QueueScheduleExecution.alphabet`) up to a depth, depth first and iteratively deepened. Each prefix runs again on
/// fresh storage (a queue cannot be copied); a prefix whose fingerprint was already explored
/// with at least as many steps left is pruned. The two-step prefixes are the blocks shared out
/// to every core, and the first failure by block number wins, so the result never depends on
/// timing. `budget` bounds the schedules run, shared evenly between the blocks.
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
        let subtrees = prefixes
        let cap = max(1, options.budget / max(1, subtrees.count))
        return await ParallelSearch.firstHit(blocks: subtrees.count, parallelism: options.parallelism) { block in
            var search = DepthFirst<A>(depth: depth, cap: cap, watchdog: watchdog)
            let hit = await search.deepening(subtrees[block])
            return .init(
                explored: search.explored, steps: search.steps,
                hit: hit.map { QueueSearchHit(index: search.explored - 1, steps: $0.steps, invariant: $0.invariant) })
        }
    }

    /// What running one prefix showed.
    struct Visit: Sendable {
        var failure: ContractID?
        var next: [QueueSchedule.Step] = []
        var fingerprint = 0
    }

    /// Runs `prefix` on fresh storage and reads, when every step held, the steps that can
    /// follow and the fingerprint.
    static func visit<A: WriteQueueAdapter>(
        _ prefix: [QueueSchedule.Step], _ adapter: A.Type, watchdog: Duration
    ) async -> Visit {
        let seen = VisitRecord()
        let crashes = prefix.filter { $0 == .crash }.count
        let replay = await QueueSchedule.replay(
            against: A.self, watchdog: watchdog, steps: prefix.count,
            observe: { execution in
                let tasks = try await execution.harness.tasks()
                seen.record(next: execution.alphabet(crashes: crashes), fingerprint: execution.fingerprint(tasks: tasks))
            }
        ) { _, index in prefix[index] }
        return Visit(failure: replay.invariant, next: seen.next, fingerprint: seen.fingerprint)
    }

    /// Depth-first search of one subtree, iteratively deepened: every schedule of length d is
    /// tried before any of length d + 1, so the budget is never spent deep in the first branch
    /// while a shorter failure waits in the next one.
    private struct DepthFirst<A: WriteQueueAdapter> {
        let depth: Int
        let cap: Int
        let watchdog: Duration
        var explored = 0
        var steps = 0
        var seen: [Int: Int] = [:]

        mutating func deepening(_ prefix: [QueueSchedule.Step]) async
            -> (steps: [QueueSchedule.Step], invariant: ContractID)?
        {
            for limit in prefix.count...max(prefix.count, depth) {
                seen = [:]
                if let hit = await visit(prefix, limit: limit) { return hit }
                if explored >= cap { return nil }
            }
            return nil
        }

        mutating func visit(_ prefix: [QueueSchedule.Step], limit: Int) async
            -> (steps: [QueueSchedule.Step], invariant: ContractID)?
        {
            guard explored < cap else { return nil }
            explored += 1
            steps += prefix.count
            let visited = await QueueExhaustiveSearch.visit(prefix, A.self, watchdog: watchdog)
            if let failure = visited.failure { return (prefix, failure) }
            let remaining = limit - prefix.count
            guard remaining > 0 else { return nil }
            if let known = seen[visited.fingerprint], known >= remaining { return nil }
            seen[visited.fingerprint] = remaining
            for step in visited.next {
                if let hit = await visit(prefix + [step], limit: limit) { return hit }
            }
            return nil
        }
    }
}

/// What the replay's body saw after the last step, read after the run ends.
private final class VisitRecord: @unchecked Sendable {
    private(set) var next: [QueueSchedule.Step] = []
    private(set) var fingerprint = 0

    func record(next: [QueueSchedule.Step], fingerprint: Int) {
        self.next = next
        self.fingerprint = fingerprint
    }
}
