/// Runs numbered blocks of a search on every core and picks the first hit by block number, so
/// the answer never depends on which core finished first.
package enum ParallelSearch {
    /// What one block did: how many units it explored and, if it stopped early, its hit.
    package struct Block<Hit: Sendable>: Sendable {
        /// Units explored, up to and including the hit.
        package var explored: Int
        /// Steps executed over those units.
        package var steps: Int
        /// The block's first hit, if any.
        package var hit: Hit?

        /// Creates a block result.
        package init(explored: Int, steps: Int, hit: Hit?) {
            self.explored = explored
            self.steps = steps
            self.hit = hit
        }
    }

    /// Runs blocks `0 ..< count` on `parallelism` workers and returns the lowest-numbered
    /// hit with the units and steps explored in every block before it and in its own block.
    ///
    /// Workers take the next block number from a shared counter, so a slow block never holds
    /// the others up; once a hit is known, no block after it starts. The answer and the totals
    /// depend only on the block numbers, never on timing or on `parallelism`.
    /// - Parameters:
    ///   - count: How many blocks there are.
    ///   - parallelism: How many workers run at once.
    ///   - body: Explores one block; it must be deterministic in its block number.
    package static func firstHit<Hit: Sendable>(
        blocks count: Int, parallelism: Int,
        _ body: @escaping @Sendable (Int) async -> Block<Hit>
    ) async -> (explored: Int, steps: Int, hit: Hit?) {
        let board = Board<Hit>(count: count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, min(parallelism, count)) {
                group.addTask {
                    while let index = board.take() {
                        board.finish(index, await body(index))
                    }
                }
            }
        }
        return board.result()
    }

    /// The shared counter and results of one search.
    private final class Board<Hit: Sendable>: Sendable {
        private struct State {
            var next = 0
            var firstHit = Int.max
            var results: [Int: Block<Hit>] = [:]
        }

        private let count: Int
        private let state = Locked(rawValue: State())

        init(count: Int) {
            self.count = count
        }

        func take() -> Int? {
            state.withLock { state in
                guard state.next < count, state.next < state.firstHit else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func finish(_ index: Int, _ block: Block<Hit>) {
            state.withLock { state in
                state.results[index] = block
                if block.hit != nil { state.firstHit = min(state.firstHit, index) }
            }
        }

        func result() -> (explored: Int, steps: Int, hit: Hit?) {
            let (firstHit, results) = state.withLock { ($0.firstHit, $0.results) }
            var explored = 0
            var steps = 0
            for index in 0..<min(count, firstHit == Int.max ? count : firstHit + 1) {
                guard let block = results[index] else { break }
                explored += block.explored
                steps += block.steps
                if let hit = block.hit { return (explored, steps, hit) }
            }
            return (explored, steps, nil)
        }
    }
}
