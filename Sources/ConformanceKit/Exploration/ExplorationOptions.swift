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
    /// Rules a team knows its implementation breaks (`["P12"]`), as a ledger does: their
    /// findings are counted and shown, never reported as failures, and one that stops
    /// happening is reported so the entry can go.
    public var expecting: Set<ContractID>
    /// Only findings of required rules count: recommended ones (P10's cycles, P12, P13, Q11,
    /// Q12) are not reported and do not stop the search for others.
    public var requiredOnly: Bool
    /// Stop at the first finding (by schedule number) instead of exploring the whole budget for
    /// every distinct broken rule: quicker when one bug is all you want to see.
    public var stopsAtFirstFinding: Bool
    /// Whether a recommended rule's finding (P10's cycles, P12, P13, Q11, Q12) is an error, as
    /// ``RunOptions/strict`` makes it for a contract check; by default it is a warning, as the
    /// catalogue's tiers say. The regression test printed for it then runs strictly too.
    public var strict: Bool

    /// Creates options.
    /// - Parameters:
    ///   - strategy: Random with a seed (default seed 1), or bounded exhaustive.
    ///   - budget: The most schedules to try.
    ///   - maxSteps: The length of each random schedule.
    ///   - parallelism: How many schedules run at once; defaults to the active processor count.
    ///   - shrink: Whether to shrink a failure (default `true`).
    ///   - watchdog: The limit for each schedule and each replay; ``RunOptions/defaultWatchdog``
    ///     (30 s unless `CONFORMANCE_WATCHDOG_SECONDS` says otherwise) by default.
    ///   - expecting: Rules whose findings are known and expected (see ``expecting``).
    ///   - requiredOnly: Whether only required rules' findings count.
    ///   - stopsAtFirstFinding: Whether the search stops at its first finding.
    ///   - strict: Whether recommended rules' findings are errors (default `false`).
    public init(
        strategy: ExplorationStrategy = .random(seed: 1), budget: Int = 2_000, maxSteps: Int = 24,
        parallelism: Int? = nil, shrink: Bool = true, watchdog: Duration = RunOptions.defaultWatchdog,
        expecting: Set<ContractID> = [], requiredOnly: Bool = false, stopsAtFirstFinding: Bool = false,
        strict: Bool = false
    ) {
        self.strict = strict
        self.stopsAtFirstFinding = stopsAtFirstFinding
        self.expecting = expecting
        self.requiredOnly = requiredOnly
        self.strategy = strategy
        self.budget = max(1, budget)
        self.maxSteps = max(1, maxSteps)
        self.parallelism = max(1, parallelism ?? ProcessInfo.processInfo.activeProcessorCount)
        self.shrink = shrink
        self.watchdog = watchdog
    }
}
