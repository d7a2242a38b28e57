/// The clock moved in small steps, a sending pass after each, while no pass sends and nothing
/// waits on it: for a queue that keeps due times in storage, or holds a new task back, as a sync
/// timer would find them due. Counts how far the clock moved and sums the steps up in one
/// transcript line.
struct QuietClockStepping {
    /// How far one step moves the clock: a sixteenth of the declared cap (or of 16 s) by default.
    let step: Duration
    /// How far the clock may move in all: twice the cap or twice the request timeout by default
    /// (a send lease in storage left by a crash expires by then).
    let limit: Duration
    /// How far the clock moved so far, by steps and by the queue's own timers.
    private(set) var moved = Duration.zero
    /// Steps taken since the last transcript line.
    private(set) var untranscribed = 0
    /// Steps taken in all.
    private(set) var steps = 0

    init(capabilities: QueueCapabilities, step: Duration? = nil, limit: Duration? = nil) {
        let horizon = capabilities.backoffCap ?? .seconds(16)
        self.step = step ?? horizon / 16
        self.limit = limit ?? max(horizon * 2, capabilities.requestTimeout * 2)
    }

    /// Whether the clock may move further.
    var canMove: Bool { moved < limit }

    /// One step was taken.
    mutating func stepped() {
        moved += step
        untranscribed += 1
        steps += 1
    }

    /// The clock moved by `duration` for another reason (the queue's own timer was due).
    mutating func moved(by duration: Duration) {
        moved += duration
    }

    /// Starts counting again from zero, for another task.
    mutating func restart() {
        moved = .zero
    }

    /// The line that sums up the steps not yet transcribed, or `nil` when there are none.
    mutating func takeTranscriptLine() -> String? {
        guard untranscribed > 0 else { return nil }
        defer { untranscribed = 0 }
        return "advanced the clock \(untranscribed)× by \(ManualClock.format(step)) (nothing waits on it), "
            + "a sending pass after each, \(ManualClock.format(moved)) in all"
    }
}
