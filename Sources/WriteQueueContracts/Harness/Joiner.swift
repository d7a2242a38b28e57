/// Who escalated a task the stage watches (one waiting on a parked request, or on the
/// ``ManualClock``), read on the escalating task at the moment the escalation came: the
/// settling machinery's evidence that a trigger awaits that work (a pass joining a pass that
/// has a request in flight, or waits for its backoff).
struct Joiner: Sendable {
    /// The escalating task's trigger tag: the trigger whose work joined.
    let tag: Int?
    /// The trigger the kit was probing when it came (a probe escalates with no tag).
    let probing: Int?

    /// The trigger that joined: the tag's, or, with no tag, the probed one. A probe escalates
    /// from the kit's own context, which has no tag, so an escalation with a tag is that
    /// trigger's work, never the probe's, even while a probe runs.
    var trigger: Int? { tag ?? probing }
}

/// The work a ``Joiner`` was seen awaiting.
enum JoinedWork {
    /// The parked request with this number.
    case request(Int)
    /// The clock wait of `trigger`, on the task with hash `task`.
    case clockWait(trigger: Int, task: Int?)
}
