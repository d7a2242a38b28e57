/// An adapter mistake the scheduler saw: a request made, or still open, by work a trigger
/// started and did not await, after that trigger returned.
///
/// The scheduler numbers requests in registration order; the timeline a contract prints may
/// number them otherwise (it shows only the requests it reports), so the message is written by
/// the timeline, which knows its own numbering: see ``description(naming:)``.
package struct UnawaitedRequest: Sendable, Equatable {
    /// When the scheduler saw it.
    package enum Moment: Sendable, Equatable {
        /// The request registered after its trigger had returned.
        case madeAfterReturn
        /// The request was still open when its trigger returned.
        case openAtReturn
    }

    /// The request's number in the scheduler's registration order.
    package let request: Int
    /// The name of the trigger whose work made it.
    package let trigger: String
    package let moment: Moment

    package init(request: Int, trigger: String, moment: Moment) {
        self.request = request
        self.trigger = trigger
        self.moment = moment
    }

    /// The sentence for a failure message, with the request named by `name`.
    package func description(naming name: String) -> String {
        let what =
            switch moment {
            case .madeAfterReturn:
                "\(name) came from work that \"\(trigger)\" started and did not await: the trigger had already returned."
            case .openAtReturn:
                "\(name) is still open in work that \"\(trigger)\" started and did not await: the trigger returned first."
            }
        return what + " " + Self.advice
    }

    /// What to do about it, whichever the moment.
    private static let advice =
        "An adapter's trigger must await the work it starts (call the async method, not a wrapper that "
        + "spawns a Task and returns)."
}
