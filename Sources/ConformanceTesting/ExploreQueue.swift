import ConformanceKit
import Testing
import WriteQueueContracts

/// Explores the write queue behind `adapter` through random schedules from `seed` — submits,
/// copies and updates, sending passes started together, every kind of answer to any open
/// request, the clock, crashes and relaunches — checks I7–I9 and the Q rules one state can
/// break after every step, and records every distinct broken rule, each shrunk, as one issue
/// at the caller's line: the bug report and the regression test to paste.
///
/// ```swift
/// @Test func myQueueSurvivesExploration() async {
///     await explore(MyQueueAdapter.self, seed: 7, budget: 500)
/// }
/// ```
///
/// The same seed reproduces the same run exactly; the seed is printed with the finding.
/// Nothing is recorded when every rule holds.
///
/// - Parameters:
///   - adapter: Your queue adapter type; every schedule gets fresh storage.
///   - seed: The seed of every random choice.
///   - budget: The most schedules to run.
///   - maxSteps: The length of each schedule.
///   - strict: When `false` (the default, as the catalogue's tiers say) a recommended rule's
///     finding (Q12) is a warning; when `true` it is an error.
///   - expecting: Rules your queue is known to break: shown as warnings, never failures, and
///     one that stops happening is an issue, so the entry goes.
///   - requiredOnly: Whether only required rules' findings count.
///   - sourceLocation: Where the issue points; leave the default.
/// - Returns: The result, for further checks.
@discardableResult
public func explore<Adapter: WriteQueueAdapter>(
    _ adapter: Adapter.Type, seed: UInt64 = 1, budget: Int = 500, maxSteps: Int = 24,
    strict: Bool = false, expecting: Set<ContractID> = [], requiredOnly: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ExplorationResult {
    let options = ExplorationOptions(
        strategy: .random(seed: seed), budget: budget, maxSteps: maxSteps, expecting: expecting,
        requiredOnly: requiredOnly, strict: strict)
    let result = await QueueExploration.explore(adapter, options: options)
    ExplorationReporting.record(result, strict: strict, sourceLocation: sourceLocation)
    return result
}

/// Explores the write queue behind `adapter` with explicit options (random or bounded
/// exhaustive) and records every distinct broken rule, each shrunk, as one issue at the
/// caller's line (a bounded exhaustive search stops at its first).
///
/// ```swift
/// @Test func myOutboxSurvivesEveryShortSchedule() async {
///     await explore(OutboxAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 4)))
/// }
/// ```
///
/// - Parameters:
///   - adapter: Your write-queue adapter type; every schedule gets fresh storage.
///   - options: Strategy, budget, parallelism, strictness.
///   - sourceLocation: Where the issue points; leave the default.
/// - Returns: The result, for further checks.
@discardableResult
public func explore<Adapter: WriteQueueAdapter>(
    _ adapter: Adapter.Type, options: ExplorationOptions,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ExplorationResult {
    let result = await QueueExploration.explore(adapter, options: options)
    ExplorationReporting.record(result, strict: options.strict, sourceLocation: sourceLocation)
    return result
}
