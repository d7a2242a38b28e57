import Foundation

/// What the kit hands a queue when it launches one: the transport to send through, the clock to
/// wait on, the time of day as the app reads it, and which process this launch is.
public struct QueueEnvironment: Sendable {
    /// The kit's transport: every request parks there until the timeline answers it. Each
    /// launch gets its own, so a request is known by the process that sent it even when it is
    /// sent from a `DispatchQueue` or a completion handler.
    public let transport: ControlledTransport
    /// The kit's clock: backoff waits on it, and only the timeline moves it.
    public let clock: ManualClock
    /// The launch (app process) number, from 1: a relaunch after a crash, or a second instance
    /// over the same storage, has a new one. A queue that keeps send leases in a storage
    /// object that outlives the kit's crash may stamp them with it and treat leases of another
    /// launch as gone (see ``WriteQueueAdapter/forgetProcessMemory(in:)``).
    public let launch: Int
    /// When the phone last started, on the kit's clock.
    private let bootedAt: ManualClock.Instant

    /// Creates an environment.
    package init(
        transport: ControlledTransport, clock: ManualClock, launch: Int = 1, bootedAt: ManualClock.Instant = .zero
    ) {
        self.transport = transport
        self.clock = clock
        self.launch = launch
        self.bootedAt = bootedAt
    }

    /// Seconds since the phone started, for queues that read a monotonic clock
    /// (`ProcessInfo.processInfo.systemUptime`): pass `environment.uptime` where the app passes
    /// that. It moves with the manual clock and, like the real one, starts over from zero when
    /// the phone restarts: Q8 restarts it (the phone runs out of battery with a retry pending),
    /// so a due time stored in uptime seconds is judged as a real restart would leave it.
    public var uptime: @Sendable () -> TimeInterval {
        let (clock, bootedAt) = (clock, bootedAt)
        return { ManualClock.seconds(bootedAt.duration(to: clock.now)) }
    }

    /// The time of day on the kit's clock, for queues that read `Date()` (`now: () -> Date`):
    /// pass `environment.now` where the app passes `Date.init`. It moves only with the manual
    /// clock, and no two reads return the same date (as with a real clock), so creation times
    /// never tie: a read at the instant of the previous one is one microsecond later. A delay
    /// computed as `due.timeIntervalSince(now())` can so come out a few microseconds short, and
    /// the clock then shows a 1 s wait as 999 ms; a queue that checks `now() >= due` right after
    /// such a wait finds the task not quite due, as a real timer's jitter can make it: allow a
    /// millisecond. See ``ManualClock/date``.
    public var now: @Sendable () -> Date {
        let clock = clock
        return { clock.date }
    }
}
