/// How the kit hands an answer to a load. Every async contract runs under each mode, so a
/// subject that is correct under only one scheduling is caught.
public enum DeliveryMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The load parks; the driver resumes it itself as soon as the timeline answers.
    case immediate
    /// The load parks; a separate task resumes it, so the subject resumes on another thread
    /// while the driver is already waiting for the next event.
    case fromAnotherTask
    /// The answer is already there when the load starts: the load returns without parking.
    /// Applies to every answer the timeline gives right after the step that made the request
    /// (learned from an `immediate` run of the same contract); requests the subject makes in
    /// reaction are reported at the timeline's answer step, as they were in that run.
    case alreadyAvailable

    public var description: String {
        switch self {
        case .immediate: "answers delivered immediately"
        case .fromAnotherTask: "answers delivered from another task"
        case .alreadyAvailable: "answers already available when the load starts"
        }
    }
}
