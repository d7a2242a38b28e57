import ConformanceKit

/// Explores a write queue through generated schedules — submits (new, copied and coalescable
/// updates), sending passes started together, answers of every kind (success, unknown outcomes,
/// conflicts, client errors) to any open send in any order, the clock, crashes and relaunches —
/// checks the rules after every step, and shrinks each distinct broken rule.
///
/// ```swift
/// let result = await QueueExploration.explore(MyQueueAdapter.self, options: ExplorationOptions(budget: 300))
/// ```
///
/// The rules are the invariants I7–I9 and every Q rule a single state of the run can break,
/// judged only where no correct queue could differ: Q1 (stored with its key once submit
/// returns), Q2 (a waiting task keeps its identity), Q4 and Q9 (no resend after a terminal
/// answer), Q6 (no two tasks share a key), Q7 (no two requests for one task in flight from one
/// instant), Q8 (a retry within the declared cap), Q10 (no sensitive value in diagnostics) and
/// Q12 (a merged update keeps the newest body). The explorer is not told which rule a queue
/// breaks. Rules about a whole history (Q3's replay, Q8's growth to the cap, Q11 on a relaunch
/// that restores) stay with the fixed Q contracts.
public enum QueueExploration {
    /// Explores the queue behind `adapter`.
    /// - Parameters:
    ///   - adapter: The queue's adapter; each schedule gets fresh storage.
    ///   - options: Strategy (random from a seed, or bounded exhaustive to a depth), budget,
    ///     parallelism, watchdog.
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
    public static func explore<A: WriteQueueAdapter>(
        _ adapter: A.Type, options: ExplorationOptions = ExplorationOptions(budget: 500)
    ) async -> ExplorationResult {
        await ScheduleExplorer.explore(QueueScheduleFamily<A>(), options: options)
    }
}
