import Foundation

/// Settings for one contract run.
public struct RunOptions: Hashable, Sendable {
    /// How long a timeline may go without progress (no new step, no new wait) before the
    /// watchdog calls it hung; ``defaultWatchdog`` unless you pass another limit. A timeline that
    /// keeps moving may run up to eight such limits in all.
    public var watchdog: Duration
    /// When `true`, recommended-tier violations are errors, not warnings.
    public var strict: Bool

    /// Creates options.
    /// - Parameters:
    ///   - watchdog: How long a timeline may go without progress; ``defaultWatchdog`` by default.
    ///   - strict: Whether recommended-tier violations are errors.
    public init(watchdog: Duration = RunOptions.defaultWatchdog, strict: Bool = false) {
        self.watchdog = watchdog
        self.strict = strict
    }

    /// The watchdog limit when none is given: 30 seconds, or the number of seconds in the
    /// environment variable `CONFORMANCE_WATCHDOG_SECONDS` when it holds a positive number.
    ///
    /// A correct subject finishes a timeline in milliseconds when the machine is idle, but a
    /// due-time queue's Q8 runs a few hundred sending passes, and a test process that runs
    /// hundreds of cases at once on two cores can slow each one a hundredfold. Code built with
    /// a sanitizer runs 5–15 times slower again: set the variable for such runs
    /// (`Scripts/check-thread-sanitizer.sh` sets 120) instead of changing any test.
    /// ``ExplorationOptions`` uses the same default.
    public static var defaultWatchdog: Duration {
        let seconds = ProcessInfo.processInfo.environment["CONFORMANCE_WATCHDOG_SECONDS"].flatMap(Double.init)
        guard let seconds, seconds > 0, seconds.isFinite else { return .seconds(30) }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
