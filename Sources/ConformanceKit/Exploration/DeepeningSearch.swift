/// The depth-first half of a bounded exhaustive search, iteratively deepened: every schedule
/// of length d below a prefix is tried before any of length d + 1, so the budget is never spent
/// deep in the first branch while a shorter failure waits in the next one. A prefix whose
/// fingerprint was already explored with at least as many steps left is pruned.
///
/// The subject cannot be copied, so `run` executes each prefix from scratch and says whether it
/// failed, its fingerprint and the steps that can follow.
package struct DeepeningSearch<Step: Sendable, Failure: Sendable> {
    /// What running one prefix showed.
    package struct Visit: Sendable {
        /// The failure, if the prefix failed (the search stops there).
        package var failure: Failure?
        /// A hash of the state the prefix reached.
        package var fingerprint: Int
        /// The steps that can follow.
        package var next: [Step]

        /// Creates a visit.
        package init(failure: Failure? = nil, fingerprint: Int = 0, next: [Step] = []) {
            self.failure = failure
            self.fingerprint = fingerprint
            self.next = next
        }
    }

    /// The longest schedule.
    package let depth: Int
    /// The most prefixes to run.
    package let cap: Int
    /// Prefixes run so far.
    package private(set) var explored = 0
    /// Steps executed over them.
    package private(set) var steps = 0
    private var seen: [Int: Int] = [:]

    /// Creates a search to `depth` steps that runs at most `cap` prefixes.
    package init(depth: Int, cap: Int) {
        self.depth = depth
        self.cap = cap
    }

    /// Searches below `prefix`; returns the first failing schedule and its failure.
    /// - Parameter run: Runs a prefix (the second argument is the current depth limit).
    package mutating func search(
        below prefix: [Step], run: ([Step], Int) async -> Visit
    ) async -> (steps: [Step], failure: Failure)? {
        for limit in prefix.count...max(prefix.count, depth) {
            seen = [:]
            if let hit = await visit(prefix, limit: limit, run: run) { return hit }
            if explored >= cap { return nil }
        }
        return nil
    }

    private mutating func visit(
        _ prefix: [Step], limit: Int, run: ([Step], Int) async -> Visit
    ) async -> (steps: [Step], failure: Failure)? {
        guard explored < cap else { return nil }
        explored += 1
        steps += prefix.count
        let visited = await run(prefix, limit)
        if let failure = visited.failure { return (prefix, failure) }
        let remaining = limit - prefix.count
        guard remaining > 0 else { return nil }
        if let known = seen[visited.fingerprint], known >= remaining { return nil }
        seen[visited.fingerprint] = remaining
        for step in visited.next {
            if let hit = await visit(prefix + [step], limit: limit, run: run) { return hit }
        }
        return nil
    }
}
