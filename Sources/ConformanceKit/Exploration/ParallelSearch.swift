/// Runs numbered blocks of a search on every core and picks the first hit by block number, so
/// the answer never depends on which core finished first.
public enum ParallelSearch {
    /// What one block did: how many units it explored and, if it stopped early, its hit.
    public struct Block<Hit: Sendable>: Sendable {
        /// Units explored, up to and including the hit.
        public var explored: Int
        /// Steps executed over those units.
        public var steps: Int
        /// The block's first hit, if any.
        public var hit: Hit?

        /// Creates a block result.
        public init(explored: Int, steps: Int, hit: Hit?) {
            self.explored = explored
            self.steps = steps
            self.hit = hit
        }
    }

    /// Runs blocks `0 ..< count`, `parallelism` at a time, and returns the lowest-numbered hit
    /// with the units and steps explored in every block before it and in its own block.
    ///
    /// Blocks run in waves; a wave that holds a hit is the last. The totals are the same for
    /// any `parallelism` up to the wave boundary, and the hit is always the same.
    /// - Parameters:
    ///   - count: How many blocks there are.
    ///   - parallelism: How many blocks run at once.
    ///   - body: Explores one block; it must be deterministic in its block number.
    public static func firstHit<Hit: Sendable>(
        blocks count: Int, parallelism: Int,
        _ body: @escaping @Sendable (Int) async -> Block<Hit>
    ) async -> (explored: Int, steps: Int, hit: Hit?) {
        var explored = 0
        var steps = 0
        var waveStart = 0
        while waveStart < count {
            let wave = waveStart..<min(count, waveStart + max(1, parallelism))
            let results = await withTaskGroup(of: (Int, Block<Hit>).self) { group in
                for index in wave {
                    group.addTask { (index, await body(index)) }
                }
                var results: [(Int, Block<Hit>)] = []
                for await result in group { results.append(result) }
                return results.sorted { $0.0 < $1.0 }.map(\.1)
            }
            for block in results {
                explored += block.explored
                steps += block.steps
                if let hit = block.hit { return (explored, steps, hit) }
            }
            waveStart = wave.upperBound
        }
        return (explored, steps, nil)
    }
}
