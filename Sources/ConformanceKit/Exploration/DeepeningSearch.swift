/// The depth-first half of a bounded exhaustive search, iteratively deepened over every subtree
/// at once (``search(subtrees:depth:budget:parallelism:run:)``): every schedule of length d is
/// tried before any of length d + 1, so the budget is never spent deep in the first branch while
/// a shorter failure waits in the next one. A prefix whose
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

    /// The most prefixes to run.
    package let cap: Int
    /// Prefixes run so far.
    package private(set) var explored = 0
    /// Steps executed over them.
    package private(set) var steps = 0
    /// Whether a prefix was left out because `cap` prefixes had run: the round is incomplete.
    package private(set) var refusedForCap = false
    private var seen: [Int: Int] = [:]
    /// Turns for other work on the cooperative pool: a model-level prefix never suspends.
    private var turns = CooperativeTurns()

    /// Creates a search that runs at most `cap` prefixes; each round says how deep it goes.
    package init(cap: Int) {
        self.cap = cap
    }

    /// One round of the deepening below `prefix`: every schedule of up to `limit` steps, none
    /// longer.
    package mutating func search(
        below prefix: [Step], limit: Int, run: ([Step], Int) async -> Visit
    ) async -> (steps: [Step], failure: Failure)? {
        guard prefix.count <= limit else { return nil }
        seen = [:]
        return await visit(prefix, limit: limit, run: run)
    }

    /// Searches every subtree below `prefixes`, iteratively deepened across all of them: every
    /// schedule of length d in any subtree runs before any of length d + 1, so the hit is a
    /// shortest failing schedule, and among the shortest the first by subtree number. (Deepening
    /// each subtree on its own and taking the first subtree with a hit returned a four-step
    /// schedule while a two-step one failed in a later subtree.) Each round's subtrees run on
    /// `parallelism` workers; the result depends only on the subtree numbers.
    /// - Parameters:
    ///   - prefixes: The subtrees' prefixes, in order.
    ///   - depth: The longest schedule.
    ///   - budget: The most prefixes to run over all rounds, shared evenly between subtrees.
    ///   - parallelism: Workers per round.
    ///   - run: Runs a prefix of a subtree (its number, the prefix, the round's depth limit).
    /// - Returns: The prefixes run, their steps, the hit with its number in the search and its
    ///   subtree, and the longest schedule length every subtree ran in full (`nil` when the
    ///   budget cut even the first round short).
    package static func search(
        subtrees prefixes: [[Step]], depth: Int, budget: Int, parallelism: Int,
        run: @escaping @Sendable (_ subtree: Int, _ prefix: [Step], _ limit: Int) async -> Visit
    ) async -> (
        explored: Int, steps: Int, hit: (index: Int, subtree: Int, steps: [Step], failure: Failure)?,
        completeDepth: Int?
    ) {
        var explored = 0
        var steps = 0
        var completeDepth: Int? = nil
        let shortest = prefixes.map(\.count).min() ?? 0
        for limit in shortest...max(shortest, depth) {
            let remaining = budget - explored
            guard remaining > 0 else { break }
            let cap = max(1, remaining / max(1, prefixes.count))
            let capped = Locked(rawValue: false)
            let round = await ParallelSearch.firstHit(blocks: prefixes.count, parallelism: parallelism) { block in
                var search = DeepeningSearch(cap: cap)
                let hit = await search.search(below: prefixes[block], limit: limit) { prefix, limit in
                    await run(block, prefix, limit)
                }
                if search.refusedForCap { capped.withLock { $0 = true } }
                return .init(
                    explored: search.explored, steps: search.steps,
                    hit: hit.map { (index: search.explored - 1, subtree: block, steps: $0.steps, failure: $0.failure) })
            }
            if let hit = round.hit {
                // The hit's number counts every prefix run before it: earlier rounds, and this
                // round's subtrees before its own.
                return (
                    explored + round.explored, steps + round.steps,
                    (explored + round.explored - 1, hit.subtree, hit.steps, hit.failure), completeDepth
                )
            }
            explored += round.explored
            steps += round.steps
            // Every subtree ran every schedule of this length: nothing was cut by the budget.
            guard !capped.rawValue else { break }
            completeDepth = limit
        }
        return (explored, steps, nil, completeDepth)
    }

    private mutating func visit(
        _ prefix: [Step], limit: Int, run: ([Step], Int) async -> Visit
    ) async -> (steps: [Step], failure: Failure)? {
        guard explored < cap else {
            refusedForCap = true
            return nil
        }
        explored += 1
        steps += prefix.count
        await turns.take()
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
