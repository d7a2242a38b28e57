import ConformanceKit
import PagerContracts
import Testing

extension PagerSchedule {
    /// Replays this schedule against `adapter` and records the first invariant violation as an
    /// issue at the caller's line, with the transcript attached: the form of the explorer's
    /// printed regression tests.
    ///
    /// ```swift
    /// @Test func endOfListRegression() async {
    ///     let schedule: PagerSchedule = [
    ///         .bottomReached,
    ///         .deliver(request: 1, rows: [], hasMore: false),
    ///         .bottomReached,
    ///     ]
    ///     await schedule.check(MyPagerAdapter.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: Your adapter type; the kit creates a fresh instance.
    ///   - options: The watchdog limit and strictness: a recommended rule's violation (a cursor
    ///     cycle, a no-progress stop) is a warning unless `strict` is set, as for a contract
    ///     check. The explorer prints `options: RunOptions(strict: true)` into the test it
    ///     found strictly.
    ///   - sourceLocation: Where failures point; leave the default.
    public func check<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}

extension PagerSchedule {
    /// Replays this schedule against `adapter` and, step by step, against `reference`, and
    /// records the first violation (I1–I6, or a visible list that differs from the
    /// reference's) as an issue at the caller's line.
    ///
    /// - Parameters:
    ///   - adapter: Your adapter type.
    ///   - reference: A correct adapter with the same conforming variations.
    ///   - options: The watchdog limit and strictness (lenient by default, as for a contract
    ///     check).
    ///   - sourceLocation: Where failures point; leave the default.
    public func check<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        _ adapter: Adapter.Type, comparingWith reference: Reference.Type,
        options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, comparingWith: reference, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}

extension PagerSchedule {
    /// Replays this schedule against a fresh subject made by the async `adapter`, under each
    /// delivery mode, and records the first invariant violation as an issue at the caller's
    /// line: the form of the explorer's printed regression tests for async pagers.
    ///
    /// ```swift
    /// @Test func staleLoadRegression() async {
    ///     let schedule: PagerSchedule = [
    ///         .bottomReached,
    ///         .changeQuery,
    ///         .deliver(request: 1, rows: [1]),
    ///     ]
    ///     await schedule.check(FeedViewModelAdapter.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: Your async adapter type; the kit creates a fresh subject per mode.
    ///   - modes: The delivery modes to replay under; all of them by default (the
    ///     `alreadyAvailable` replay learns its answers from an `immediate` replay of the same
    ///     steps).
    ///   - options: The watchdog limit and strictness (lenient by default, as for a contract
    ///     check).
    ///   - sourceLocation: Where failures point; leave the default.
    public func check<Adapter: AsyncPagerAdapter>(
        _ adapter: Adapter.Type, modes: [DeliveryMode] = DeliveryMode.allCases,
        options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, options: options, modes: modes)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}
