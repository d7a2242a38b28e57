import ReferenceImplementations
import WriteQueueContracts

/// Bridges the kit's ``ManualClock`` to the reference queue's ``QueueClock``: the queue's
/// backoff waits on the manual clock, which only the timeline moves.
public struct KitQueueClock: QueueClock {
    /// The kit's clock.
    public let clock: ManualClock

    /// Bridges `clock`.
    public init(clock: ManualClock) {
        self.clock = clock
    }

    public var now: Duration { clock.now.offset }

    public func wait(until deadline: Duration) async throws {
        // Suspends on the kit's clock until the timeline advances it; no real time passes.
        try await clock.wait(until: ManualClock.Instant(offset: deadline))
    }
}
