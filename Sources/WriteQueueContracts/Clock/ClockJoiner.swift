/// Who escalated a task waiting on the ``ManualClock``, read on the escalating task at the
/// moment the escalation came: the settling machinery's join evidence for a pass that awaits
/// a pass in its backoff.
struct ClockJoiner: Sendable {
    /// The escalating task's trigger tag: the trigger whose work joined the wait.
    let tag: Int?
    /// The trigger the kit was probing when it came (a probe escalates with no tag).
    let probing: Int?
}
