import ConformanceKit
import Foundation

/// Explores a pager through generated schedules, checks the invariants I1–I6 after every
/// step, and shrinks each distinct broken rule to a minimal schedule with a paste-ready regression
/// test.
///
/// ```swift
/// let result = await PagerExploration.explore(
///     MyPagerAdapter.self, options: ExplorationOptions(strategy: .random(seed: 7), budget: 2_000))
/// if let finding = result.finding { print(finding.regressionTest) }
/// ```
///
/// The contracts P1–P13 are fixed timelines; the explorer looks for orderings nobody wrote
/// down: answers out of order, twice, after a query change or refresh, failures and
/// cancellations at any point, pages full of duplicates, last pages and stalled cursors.
public enum PagerExploration {
    /// A failing schedule as the search found it, with the delivery mode it failed under
    /// (async level).
    typealias Hit = ScheduleHit<PagerSchedule.Step, DeliveryMode?>

    /// Explores a model-level `adapter`.
    /// - Parameters:
    ///   - adapter: The adapter type; each schedule gets a fresh instance.
    ///   - options: Strategy (random seed or exhaustive depth), budget, parallelism.
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
    @inlinable
    public static func explore<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, options: ExplorationOptions = ExplorationOptions()
    ) async -> ExplorationResult {
        // Inlined at the caller, so that an optimised build compiles the drivers for `Adapter`.
        await explore(Adapter.self, driverFactory: ModelPagerDriver.factory(Adapter.self), options: options)
    }

    /// ``explore(_:options:)`` over drivers made by `driverFactory`.
    @usableFromInline
    static func explore<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, driverFactory: @escaping ModelPagerDriver.Factory, options: ExplorationOptions
    ) async -> ExplorationResult {
        await explore(.model(Adapter.self, driverFactory: driverFactory), options: options)
    }

    /// Explores `adapter` and compares it, step by step, with `reference`: besides I1–I6, the
    /// visible list must equal the reference's for as long as both start the same requests.
    /// - Parameters:
    ///   - adapter: The adapter under check.
    ///   - reference: A correct adapter with the same conforming variations.
    ///   - options: Strategy, budget, parallelism.
    @inlinable
    public static func explore<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        _ adapter: Adapter.Type, comparingWith reference: Reference.Type,
        options: ExplorationOptions = ExplorationOptions()
    ) async -> ExplorationResult {
        // Inlined at the caller, so that an optimised build compiles the drivers for both types.
        await explore(
            Adapter.self, driverFactory: ModelPagerDriver.factory(Adapter.self),
            comparingWith: Reference.self, referenceDriverFactory: ModelPagerDriver.factory(Reference.self),
            options: options)
    }

    /// ``explore(_:comparingWith:options:)`` over drivers made by `driverFactory` and
    /// `referenceDriverFactory`.
    @usableFromInline
    static func explore<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        _ adapter: Adapter.Type, driverFactory: @escaping ModelPagerDriver.Factory,
        comparingWith reference: Reference.Type, referenceDriverFactory: @escaping ModelPagerDriver.Factory,
        options: ExplorationOptions
    ) async -> ExplorationResult {
        await explore(
            .model(
                Adapter.self, driverFactory: driverFactory,
                comparingWith: Reference.self, referenceDriverFactory: referenceDriverFactory),
            options: options)
    }

    /// Explores an async-level `adapter`: its real async code behind the kit's page source,
    /// each schedule under one delivery mode picked from the schedule's seed (every mode by
    /// default), every step settled by evidence, each schedule inside the watchdog.
    /// - Parameters:
    ///   - adapter: The adapter type; each schedule gets a fresh subject.
    ///   - modes: The delivery modes to pick from.
    ///   - options: Strategy (random seed or exhaustive depth), budget, parallelism, watchdog.
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
    public static func explore<Adapter: AsyncPagerAdapter>(
        _ adapter: Adapter.Type, modes: [DeliveryMode] = DeliveryMode.allCases,
        options: ExplorationOptions = ExplorationOptions(budget: 500)
    ) async -> ExplorationResult {
        await explore(.async(Adapter.self, modes: modes), options: options)
    }

    static func explore(_ subject: ExplorationSubject, options: ExplorationOptions) async -> ExplorationResult {
        await ScheduleExplorer.explore(PagerScheduleFamily(subject: subject), options: options)
    }
}
