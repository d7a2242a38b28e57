/// Marks the work a trigger started, so the kit can tell whose request reached the source.
///
/// The kit runs each trigger in its own task with this tag set; tasks the subject spawns
/// inherit it (unstructured `Task {}` copies task-local values), so a request always names the
/// trigger it came from. Whether the trigger's *own* task is the one waiting is told apart by
/// the task's identity.
public struct TriggerTag: Hashable, Sendable {
    /// The trigger's number in the timeline.
    public let trigger: Int
    /// The identity of the trigger's own task.
    let taskIdentity: Int

    /// The tag of the work running now, if the kit started it.
    @TaskLocal public static var current: TriggerTag?
}

/// The identity of the task running now (its address, hashed), or `nil` outside a task.
func currentTaskIdentity() -> Int? {
    withUnsafeCurrentTask { task in task?.hashValue }
}
