extension ParallelSearch {
    /// What one block of a search for every distinct finding did.
    package struct HitsBlock<Hit: Sendable>: Sendable {
        /// Units explored in the block (all of them: the search does not stop at a hit).
        package var explored: Int
        /// Steps executed over those units.
        package var steps: Int
        /// The block's hits, one per distinct key, in the order the block met them.
        package var hits: [Hit]

        /// Creates a block result.
        package init(explored: Int, steps: Int, hits: [Hit]) {
            self.explored = explored
            self.steps = steps
            self.hits = hits
        }
    }

    /// Runs every block `0 ..< count` on `parallelism` workers and returns, for each distinct
    /// key, the hit met first by block number (and, inside a block, by the block's order),
    /// with the units and steps over every block.
    ///
    /// No block stops the others: a search for every broken rule explores its whole budget.
    /// The answer depends only on the block numbers, never on timing or on `parallelism`.
    /// - Parameters:
    ///   - count: How many blocks there are.
    ///   - parallelism: How many workers run at once.
    ///   - key: What makes two hits the same finding (the rule they break).
    ///   - body: Explores one block; it must be deterministic in its block number and keep
    ///     one hit per key.
    package static func distinctHits<Hit: Sendable, Key: Hashable>(
        blocks count: Int, parallelism: Int, key: (Hit) -> Key,
        _ body: @escaping @Sendable (Int) async -> HitsBlock<Hit>
    ) async -> (explored: Int, steps: Int, hits: [Hit]) {
        let board = HitsBoard<Hit>(count: count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, min(parallelism, count)) {
                group.addTask {
                    while let index = board.take() {
                        board.finish(index, await body(index))
                    }
                }
            }
        }
        let blocks = board.blocks
        var seen: Set<Key> = []
        var hits: [Hit] = []
        for block in blocks {
            for hit in block.hits where seen.insert(key(hit)).inserted { hits.append(hit) }
        }
        return (blocks.map(\.explored).reduce(0, +), blocks.map(\.steps).reduce(0, +), hits)
    }

    /// Every block's distinct hits, or, with ``ExplorationOptions/stopsAtFirstFinding``, the
    /// first hit by block number (the blocks after it never start).
    /// - Parameters:
    ///   - blocks: How many blocks there are.
    ///   - options: Parallelism and whether to stop at the first finding.
    ///   - key: What makes two hits one finding.
    ///   - body: Explores one block (deterministic in its block number).
    package static func search<Hit: Sendable, Key: Hashable>(
        blocks: Int, options: ExplorationOptions, key: (Hit) -> Key,
        _ body: @escaping @Sendable (Int) async -> HitsBlock<Hit>
    ) async -> (explored: Int, steps: Int, hits: [Hit]) {
        guard options.stopsAtFirstFinding else {
            // The whole budget runs: after a finding the search goes on for other broken rules.
            return await distinctHits(blocks: blocks, parallelism: options.parallelism, key: key, body)
        }
        let first = await firstHit(blocks: blocks, parallelism: options.parallelism) { index in
            let block = await body(index)
            return Block(explored: block.explored, steps: block.steps, hit: block.hits.first)
        }
        return (first.explored, first.steps, first.hit.map { [$0] } ?? [])
    }

    /// The shared counter and results of one search for every distinct hit.
    private final class HitsBoard<Hit: Sendable>: Sendable {
        private struct State {
            var next = 0
            var results: [Int: HitsBlock<Hit>] = [:]
        }

        private let count: Int
        private let state = Locked(rawValue: State())

        init(count: Int) {
            self.count = count
        }

        func take() -> Int? {
            state.withLock { state in
                guard state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func finish(_ index: Int, _ block: HitsBlock<Hit>) {
            state.withLock { $0.results[index] = block }
        }

        /// Every block's result, by block number.
        var blocks: [HitsBlock<Hit>] {
            let results = state.withLock { $0.results }
            return (0..<count).compactMap { results[$0] }
        }
    }
}
