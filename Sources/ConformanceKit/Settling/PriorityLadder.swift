/// The task priorities both halves settle with, and the runtime's escalation calls behind
/// `#available` in one place.
///
/// Settling learns that a trigger waits on a parked request from priority escalation: a task
/// that awaits another raises it to its own priority, and the parked task's escalation handler
/// runs on the awaiting task (it names the joiner), or inside a probe's `escalatePriority` call
/// (it proves the probed trigger waits). Escalation only raises a priority, and the runtime
/// accepts five raw priorities, so every join and every probe spends a rung: see the design
/// notes ("Limits") for what happens when they run out.
///
/// The page source (``TimelineScheduler``), the write transport's stage and the manual clock's
/// waits all park through ``observingEscalation(_:onEscalated:)``, and every trigger and probe
/// takes its priority from ``rung(above:)``.
package enum PriorityLadder {
    /// The raw priorities the runtime accepts, lowest first.
    package static let rungs: [UInt8] = [9, 17, 21, 25, 33]

    /// The lowest rung strictly above `floor`, or `nil` when `floor` is the top one or above.
    package static func rung(above floor: UInt8) -> UInt8? {
        rungs.first { $0 > floor }
    }

    /// The rung a new trigger starts on: strictly above `floor` (so that its join of a task at
    /// `floor` escalates it), or the top rung when none is left.
    package static func startingRung(above floor: UInt8) -> UInt8 {
        rung(above: floor) ?? rungs[rungs.count - 1]
    }

    /// How many rungs lie strictly above `floor`.
    package static func rungsLeft(above floor: UInt8) -> Int {
        rungs.count(where: { $0 > floor })
    }

    /// Whether this toolchain and OS let the kit observe joins through task-priority escalation
    /// (Swift 6.2 or later; on Apple platforms, OS 26 or later). Without it the kit cannot tell
    /// a trigger that awaits a parked task from one still running.
    package static var escalationAvailable: Bool {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                return true
            }
        #endif
        return false
    }

    /// Runs `operation` (a park: it suspends until the timeline answers) with an escalation
    /// handler installed on the current task, so that a task awaiting this one calls
    /// `onEscalated` with the new priority, on the awaiting task. Without escalation it only
    /// runs `operation`.
    package static func observingEscalation<T: Sendable>(
        _ operation: () async throws -> T,
        onEscalated: @escaping @Sendable (TaskPriority) -> Void
    ) async throws -> T {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                return try await withTaskPriorityEscalationHandler {
                    try await operation()
                } onPriorityEscalated: { _, new in
                    onEscalated(new)
                }
            }
        #endif
        return try await operation()
    }

    /// Raises `task` to `rung` (a probe): if it awaits, directly or through other tasks, a task
    /// parked below `rung`, that task's escalation handler runs inside this call.
    package static func escalate(_ task: Task<Void, Never>, to rung: UInt8) {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                task.escalatePriority(to: TaskPriority(rawValue: rung))
            }
        #endif
    }
}
