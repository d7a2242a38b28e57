import Foundation

/// Settings for one exploration.
public struct ExplorationOptions: Hashable, Sendable {
    /// Random with a seed, or bounded exhaustive.
    public var strategy: ExplorationStrategy
    /// The most schedules to try (random), or prefixes to execute (exhaustive).
    public var budget: Int
    /// The length of each random schedule.
    public var maxSteps: Int
    /// How many schedules run at once; every core by default.
    public var parallelism: Int
    /// Whether to shrink a failing schedule to a minimal one.
    public var shrink: Bool
    /// The watchdog for each schedule the search runs (a hang is a finding) and for each replay
    /// while shrinking.
    public var watchdog: Duration

    /// Creates options.
    /// - Parameters:
    ///   - strategy: Random with a seed (default seed 1), or bounded exhaustive.
    ///   - budget: The most schedules to try.
    ///   - maxSteps: The length of each random schedule.
    ///   - parallelism: How many schedules run at once; defaults to the active processor count.
    ///   - shrink: Whether to shrink a failure (default `true`).
    ///   - watchdog: The limit for each schedule and each replay; ``RunOptions/defaultWatchdog``
    ///     (30 s unless `CONFORMANCE_WATCHDOG_SECONDS` says otherwise) by default.
    public init(
        strategy: ExplorationStrategy = .random(seed: 1), budget: Int = 2_000, maxSteps: Int = 24,
        parallelism: Int? = nil, shrink: Bool = true,
        watchdog: Duration = RunOptions.defaultWatchdog
    ) {
        self.strategy = strategy
        self.budget = max(1, budget)
        self.maxSteps = max(1, maxSteps)
        self.parallelism = max(1, parallelism ?? ProcessInfo.processInfo.activeProcessorCount)
        self.shrink = shrink
        self.watchdog = watchdog
    }
}
