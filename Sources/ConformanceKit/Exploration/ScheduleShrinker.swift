/// Shrinks a failing schedule: first to the fewest steps (delta debugging, then removing one
/// step at a time), then to the simplest values (each step replaced by simpler ones).
///
/// The predicate replays a candidate and says whether it still fails the same way; the
/// shrinker never reads time or randomness, so the same failure always shrinks to the same
/// schedule.
package enum ScheduleShrinker {
    /// Returns a locally minimal schedule that still fails.
    /// - Parameters:
    ///   - steps: A failing schedule.
    ///   - simpler: Simpler replacements for one step, simplest first (may be empty).
    ///   - maxReplays: An upper bound on replays, so shrinking always ends.
    ///   - stillFails: Replays a candidate; `true` when it fails the same way.
    /// - Returns: The shrunk schedule and how many replays it took.
    package static func shrink<Step>(
        _ steps: [Step], simpler: (Step) -> [Step], maxReplays: Int = 5_000,
        stillFails: ([Step]) async -> Bool
    ) async -> (steps: [Step], replays: Int) {
        var current = steps
        var replays = 0
        func attempt(_ candidate: [Step]) async -> Bool {
            guard replays < maxReplays else { return false }
            replays += 1
            return await stillFails(candidate)
        }
        // Fewest steps, then simplest values; again while a simpler value let another step go
        // (an answer moved to an earlier request frees the trigger that made the later one).
        repeat {
            await removeSteps(&current, attempt)
        } while await simplifyValues(&current, simpler, attempt) && replays < maxReplays
        return (current, replays)
    }

    /// Delta debugging over steps: drops ever smaller chunks while the failure remains.
    private static func removeSteps<Step>(_ current: inout [Step], _ attempt: ([Step]) async -> Bool) async {
        var chunks = 2
        while current.count >= 2 {
            let size = max(1, current.count / chunks)
            var removed = false
            var start = 0
            while start < current.count {
                var candidate = current
                candidate.removeSubrange(start..<min(current.count, start + size))
                if !candidate.isEmpty, await attempt(candidate) {
                    current = candidate
                    removed = true
                } else {
                    start += size
                }
            }
            if removed {
                chunks = max(2, chunks - 1)
            } else if size == 1 {
                break
            } else {
                chunks = min(current.count, chunks * 2)
            }
        }
    }

    /// Replaces each step by the first simpler one that still fails, until none is; `true` when
    /// anything changed.
    private static func simplifyValues<Step>(
        _ current: inout [Step], _ simpler: (Step) -> [Step], _ attempt: ([Step]) async -> Bool
    ) async -> Bool {
        var changedAny = false
        var changed = true
        while changed {
            changed = false
            for index in current.indices {
                for replacement in simpler(current[index]) {
                    var candidate = current
                    candidate[index] = replacement
                    if await attempt(candidate) {
                        current = candidate
                        changed = true
                        changedAny = true
                        break
                    }
                }
            }
        }
        return changedAny
    }
}
