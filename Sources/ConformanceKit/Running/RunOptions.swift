/// Settings for one contract run.
public struct RunOptions: Hashable, Sendable {
    /// How long a whole timeline may take before the watchdog calls it hung. Ten seconds by
    /// default: a correct subject finishes a timeline in milliseconds.
    public var watchdog: Duration
    /// When `true`, recommended-tier violations are errors, not warnings.
    public var strict: Bool

    /// Creates options.
    public init(watchdog: Duration = .seconds(10), strict: Bool = false) {
        self.watchdog = watchdog
        self.strict = strict
    }
}
