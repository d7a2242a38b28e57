/// How the kit hands an answer to a parked load. Every async contract runs under each mode, so
/// a subject that is correct under only one scheduling is caught.
public enum DeliveryMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The driver resumes the waiting load itself, as soon as the timeline answers.
    case immediate
    /// A separate task resumes the waiting load, so the subject resumes on another thread,
    /// after the driver has moved on to waiting for the next event.
    case fromAnotherTask

    public var description: String {
        switch self {
        case .immediate: "answers delivered immediately"
        case .fromAnotherTask: "answers delivered from another task"
        }
    }
}
