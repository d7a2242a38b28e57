/// Marks the work a trigger started, so the kit can tell whose request reached the source.
///
/// The kit runs each trigger in its own task with this tag set; tasks the subject spawns
/// inherit it (unstructured `Task {}` copies task-local values), so a request always names the
/// trigger it came from. Whether the trigger's *own* task is the one waiting is told apart by
/// the task's identity.
package struct TriggerTag: Hashable, Sendable {
    /// The trigger's number in the timeline.
    package let trigger: Int
    /// The identity of the trigger's own task.
    let taskIdentity: Int
    /// Held by every task that inherited the tag: when the last one ends, the kit knows no
    /// work the trigger started is still running (an event, never a timer).
    let lifetime: TriggerLifetime?

    init(trigger: Int, taskIdentity: Int, lifetime: TriggerLifetime? = nil) {
        self.trigger = trigger
        self.taskIdentity = taskIdentity
        self.lifetime = lifetime
    }

    /// The tag of the work running now, if the kit started it.
    @TaskLocal package static var current: TriggerTag?

    package static func == (lhs: TriggerTag, rhs: TriggerTag) -> Bool {
        lhs.trigger == rhs.trigger && lhs.taskIdentity == rhs.taskIdentity
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(trigger)
        hasher.combine(taskIdentity)
    }
}

/// Calls `released` when the last task holding a trigger's tag ends: the trigger's own task,
/// and every unstructured task it started (`Task {}` copies task-local values).
final class TriggerLifetime: Sendable {
    private let released: @Sendable () -> Void

    init(released: @escaping @Sendable () -> Void) {
        self.released = released
    }

    deinit { released() }
}

/// The identity of the task running now (its address, hashed), or `nil` outside a task.
func currentTaskIdentity() -> Int? {
    withUnsafeCurrentTask { task in task?.hashValue }
}
