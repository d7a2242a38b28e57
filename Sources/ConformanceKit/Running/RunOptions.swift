/// Settings for one contract run.
public struct RunOptions: Hashable, Sendable {
    /// How long a whole timeline may take before the watchdog calls it hung. Thirty seconds by
    /// default: a correct subject finishes a timeline in milliseconds when the machine is idle,
    /// but a due-time queue's Q8 runs a few hundred sending passes, and a test process that runs
    /// hundreds of cases at once on two cores can slow each one a hundredfold.
    public var watchdog: Duration
    /// When `true`, recommended-tier violations are errors, not warnings.
    public var strict: Bool

    /// Creates options.
    public init(watchdog: Duration = .seconds(30), strict: Bool = false) {
        self.watchdog = watchdog
        self.strict = strict
    }
}
