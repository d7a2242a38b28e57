import ConformanceTesting
import Testing

/// The generic pieces: the seeded generator, the shrinker, the parallel search.
@Suite struct ExplorationPlumbingTests {
    @Test func splitMixIsReproducibleAndInRange() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        let a = (0..<100).map { _ in first.below(6) }
        let b = (0..<100).map { _ in second.below(6) }
        #expect(a == b)
        #expect(a.allSatisfy { (0..<6).contains($0) })
        #expect(Set(a).count == 6)
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)  // SplitMix64's published first output for seed 0
        var scheduleA = SplitMix64.forSchedule(3, of: 42)
        var scheduleB = SplitMix64.forSchedule(4, of: 42)
        #expect(scheduleA.next() != scheduleB.next())
    }

    @Test func shrinkerFindsTheMinimalFailingSubsequenceAndSimplestValues() async {
        let steps = [9, 3, 8, 1, 7, 5, 2, 6]
        let shrunk = await ScheduleShrinker.shrink(steps, simpler: { $0 > 1 ? [$0 - 1] : [] }) { candidate in
            candidate.contains { $0 >= 3 } && candidate.contains { $0 >= 7 }
                && (candidate.firstIndex { $0 >= 3 } ?? 0) < (candidate.lastIndex { $0 >= 7 } ?? 0)
        }
        #expect(shrunk.steps == [3, 7])
    }

    /// Positive steps are triggers, negative ones answer the trigger of that number. `[1, 2,
    /// -2]` is minimal for deletion alone (each step is needed); answering trigger 1 instead
    /// frees trigger 2. The shrinker stopped there, and `LegacyFeedController` kept a query
    /// change it did not need (8 steps, its fixed P11 timeline 7), until it deleted again
    /// after a simpler value.
    @Test func shrinkerDeletesAgainAfterASimplerValueFreesAStep() async {
        let shrunk = await ScheduleShrinker.shrink(
            [1, 2, -2], simpler: { $0 < -1 ? [$0 + 1] : [] }
        ) { candidate in
            let valid = candidate.indices.allSatisfy { index in
                candidate[index] > 0 || candidate[..<index].contains(-candidate[index])
            }
            return valid && candidate.contains(1) && candidate.contains { $0 < 0 }
        }
        #expect(shrunk.steps == [1, -1])
    }

    @Test func shrinkerKeepsAOneStepFailure() async {
        let shrunk = await ScheduleShrinker.shrink([4], simpler: { _ in [] }) { $0 == [4] }
        #expect(shrunk.steps == [4])
    }

    @Test func parallelSearchPicksTheLowestHitWhateverTheTiming() async {
        for parallelism in [1, 2, 4] {
            let result = await ParallelSearch.firstHit(blocks: 40, parallelism: parallelism) { block in
                ParallelSearch.Block(explored: 10, steps: 100, hit: block == 17 || block == 30 ? block : nil)
            }
            #expect(result.hit == 17)
            #expect(result.explored == 180)
            #expect(result.steps == 1_800)
        }
    }
}
