/// Why the kit believes a pending trigger cannot move until the timeline answers something.
///
/// The kit never guesses from time: a trigger counts as settled only when it has returned or
/// when one of these has been observed.
package enum SettleEvidence: Hashable, Sendable, CustomStringConvertible {
    /// The trigger's own task is suspended in the source, on this request.
    case parked(request: Int)
    /// The trigger's own task awaits a task that is parked on this request (seen when the
    /// await escalated the parked task's priority).
    case joined(request: Int)
    /// The kit raised the trigger's priority and the escalation reached this parked request:
    /// the trigger waits on it.
    case probed(request: Int)
    /// A load no trigger started (an event loop's) parked already raised to the trigger's
    /// priority, which no other pending trigger holds: the trigger's work awaited it before it
    /// reached the source. Weaker than ``joined(request:)``: it shows that a task on the
    /// trigger's priority awaits the load (the trigger's own, or one it started and awaits),
    /// not which; a trigger that started such a task without awaiting it and went on computing
    /// would be taken as blocked. Only untagged loads count, so a trigger's own spawned work is
    /// still probed.
    case raisedBeforeParking(request: Int)
    /// The trigger waits in the kit's completion-handler wrapper after the subject's
    /// synchronous call returned.
    case callback
    /// The priority ladder ran out (only five priorities exist): the trigger is assumed
    /// blocked on this request, which the transcript says.
    case assumed(request: Int)

    /// The request the evidence depends on; the evidence lapses when it is answered.
    package var request: Int? {
        switch self {
        case .parked(let id), .joined(let id), .probed(let id), .raisedBeforeParking(let id), .assumed(let id): id
        case .callback: nil
        }
    }

    package var description: String {
        switch self {
        case .parked(let id): "parked on request #\(id)"
        case .joined(let id): "joined the load parked on request #\(id)"
        case .probed(let id): "waits on request #\(id) (found by a priority probe)"
        case .raisedBeforeParking(let id): "waits on request #\(id) (it raised that load to its priority before the load parked)"
        case .callback: "waits for a completion handler"
        case .assumed(let id): "assumed blocked on request #\(id) (priority ladder exhausted)"
        }
    }
}
