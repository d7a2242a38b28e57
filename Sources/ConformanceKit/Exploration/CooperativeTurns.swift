/// Gives other work on the cooperative pool a turn during a long search, about once a
/// millisecond rather than after every schedule.
///
/// A model-level schedule never suspends, so a search block would otherwise hold its thread
/// until the block ends, and other tests' watchdogs in the same process could starve.
/// `Task.yield()` after every schedule kept them fed but cost a thread wake-up each time (a
/// quarter of a release run on one worker: `perf`, `SeedPager`, 50,000 schedules). The clock
/// read here decides only when a turn is given: which schedules run, and what they find,
/// never depend on it.
package struct CooperativeTurns {
    private let clock = ContinuousClock()
    private let interval: Duration
    private var lastTurn: ContinuousClock.Instant

    /// Turns at most `interval` apart while the caller keeps calling ``take()``.
    package init(every interval: Duration = .milliseconds(1)) {
        self.interval = interval
        lastTurn = clock.now
    }

    /// Yields if `interval` has passed since the last turn.
    package mutating func take() async {
        let now = clock.now
        guard now - lastTurn >= interval else { return }
        await Task.yield()
        lastTurn = clock.now
    }
}
