import ConformanceKit
import PagerContracts
import Testing

/// Explores `adapter` through random schedules from `seed`, checks the invariants I1–I6 after
/// every step, and records every distinct broken rule, each shrunk, as one issue at the caller's line: the
/// bug report and the regression test to paste.
///
/// ```swift
/// @Test func myPagerSurvivesExploration() async {
///     await explore(MyPagerAdapter.self, seed: 7, budget: 2_000)
/// }
/// ```
///
/// The same seed reproduces the same run exactly; the seed is printed with the finding.
/// Nothing is recorded when every invariant holds.
///
/// - Parameters:
///   - adapter: Your model-level adapter type; every schedule gets a fresh instance.
///   - seed: The seed of every random choice.
///   - budget: The most schedules to run.
///   - maxSteps: The length of each schedule.
///   - strict: When `false` (the default, as the catalogue's tiers say) a recommended rule's
///     finding (P10's cycles, P12, P13) is a warning; when `true` it is an error.
///   - expecting: Rules your pager is known to break (`["P12"]`): their findings are shown as
///     warnings, never failures, and one that stops happening is an issue, so the entry goes.
///   - requiredOnly: Whether only required rules' findings count.
///   - sourceLocation: Where the issue points; leave the default.
/// - Returns: The result, for further checks.
@discardableResult
@inlinable
public func explore<Adapter: PagerModelAdapter>(
    _ adapter: Adapter.Type, seed: UInt64 = 1, budget: Int = 2_000, maxSteps: Int = 24,
    strict: Bool = false, expecting: Set<ContractID> = [], requiredOnly: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ExplorationResult {
    await explore(
        adapter,
        options: ExplorationOptions(
            strategy: .random(seed: seed), budget: budget, maxSteps: maxSteps, expecting: expecting,
            requiredOnly: requiredOnly, strict: strict),
        sourceLocation: sourceLocation)
}

/// Explores `adapter` with explicit options (random or bounded exhaustive) and records every
/// distinct broken rule, each shrunk, as one issue at the caller's line (a bounded exhaustive
/// search stops at its first).
///
/// ```swift
/// @Test func myPagerSurvivesEveryShortSchedule() async {
///     await explore(MyPagerAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 5)))
/// }
/// ```
///
/// - Parameters:
///   - adapter: Your model-level adapter type.
///   - options: Strategy, budget, parallelism, strictness.
///   - sourceLocation: Where the issue points; leave the default.
/// - Returns: The result, for further checks.
@discardableResult
@inlinable
public func explore<Adapter: PagerModelAdapter>(
    _ adapter: Adapter.Type, options: ExplorationOptions,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ExplorationResult {
    // Inlined in your test target, so that the explorer is compiled for your adapter's type.
    let result = await PagerExploration.explore(adapter, options: options)
    ExplorationReporting.record(result, strict: options.strict, sourceLocation: sourceLocation)
    return result
}

/// Explores the async `adapter` (your real view model, actor or completion-handler class
/// behind the kit's page source) through random schedules from `seed`, checks the
/// invariants I1–I6 after every step, and records every distinct broken rule, each shrunk, as
/// one issue at the caller's line: the bug report and the regression test to paste.
///
/// ```swift
/// @Test func myViewModelSurvivesExploration() async {
///     await explore(FeedViewModelAdapter.self, seed: 7, budget: 500)
/// }
/// ```
///
/// Each schedule runs under one delivery mode picked from the seed (answers delivered
/// immediately, from another task, or already available when the load starts), and every
/// step is settled by evidence, never by time. A trigger the kit could not observe settle
/// (it could join a load whose every priority rung is spent) is skipped and counted in the
/// result. The same seed reproduces the same result.
///
/// - Parameters:
///   - adapter: Your async adapter type; every schedule gets a fresh subject.
///   - seed: The seed of every random choice, the delivery modes included.
///   - budget: The most schedules to run.
///   - maxSteps: The length of each schedule.
///   - modes: The delivery modes to pick from; all of them by default.
///   - strict: When `true`, a recommended rule's finding is an error, not a warning.
///   - expecting: Rules your pager is known to break: shown as warnings, never failures.
///   - requiredOnly: Whether only required rules' findings count.
///   - sourceLocation: Where the issue points; leave the default.
/// - Returns: The result, for further checks.
@discardableResult
public func explore<Adapter: AsyncPagerAdapter>(
    _ adapter: Adapter.Type, seed: UInt64 = 1, budget: Int = 500, maxSteps: Int = 24,
    modes: [DeliveryMode] = DeliveryMode.allCases, strict: Bool = false, expecting: Set<ContractID> = [],
    requiredOnly: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) async -> ExplorationResult {
    let result = await PagerExploration.explore(
        adapter, modes: modes,
        options: ExplorationOptions(
            strategy: .random(seed: seed), budget: budget, maxSteps: maxSteps, expecting: expecting,
            requiredOnly: requiredOnly, strict: strict))
    ExplorationReporting.record(result, strict: strict, sourceLocation: sourceLocation)
    return result
}


/// Explores the async `adapter` with explicit options (random or bounded exhaustive) and
/// records every distinct broken rule, each shrunk, as one issue at the caller's line (a
/// bounded exhaustive search stops at its first).
///
/// ```swift
/// @Test func myViewModelSurvivesEveryShortSchedule() async {
///     await explore(FeedViewModelAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 5)))
/// }
/// ```
///
/// - Parameters:
///   - adapter: Your async adapter type; every schedule gets a fresh subject.
///   - modes: The delivery modes to pick from (random) or to run every schedule under
///     (exhaustive, except `alreadyAvailable`, whose answers need a recorded plan); all of them
///     by default.
///   - options: Strategy, budget, parallelism, strictness.
///   - sourceLocation: Where the issue points; leave the default.
/// - Returns: The result, for further checks.
@discardableResult
public func explore<Adapter: AsyncPagerAdapter>(
    _ adapter: Adapter.Type, modes: [DeliveryMode] = DeliveryMode.allCases, options: ExplorationOptions,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ExplorationResult {
    let result = await PagerExploration.explore(adapter, modes: modes, options: options)
    ExplorationReporting.record(result, strict: options.strict, sourceLocation: sourceLocation)
    return result
}
