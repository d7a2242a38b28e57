/// How a queue waits before it retries a task whose outcome was unknown: what Q8 measures.
public enum QueueBackoff: Hashable, Sendable, CustomStringConvertible {
    /// The queue retries on the next sending pass, without waiting on the clock. Q8 is not
    /// applicable.
    case none
    /// The queue waits a delay that never exceeds `cap` (growing, fixed or randomised within
    /// it; a fixed delay is its own cap), on the injected clock or as a due time in storage.
    case capped(at: Duration)
    /// The queue backs off with no ceiling (1, 2, 4 … s, doubling forever). Q8 runs and fails
    /// such a queue: the rule asks for a cap. Declare this when you do not know your cap; the
    /// kit measures the delays and reports where they stop growing, if they do.
    case uncapped

    /// The declared cap, or `nil` when the queue declares none.
    public var cap: Duration? {
        if case .capped(let cap) = self { return cap }
        return nil
    }

    /// Whether the queue waits at all before a retry.
    public var backsOff: Bool { self != .none }

    public var description: String {
        switch self {
        case .none: "no backoff"
        case .capped(let cap): "backoff capped at \(ManualClock.format(cap))"
        case .uncapped: "backoff without a cap"
        }
    }
}
