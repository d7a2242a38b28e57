/// A failure the search met that did not show again: the same schedule, run once more at once,
/// passed or failed another way, or the finding's shrunk replay passed.
///
/// Not a finding, and never a reason to stop: a schedule that ended on the watchdog on a
/// loaded machine looks like this. But a race in the implementation looks like this too, so
/// each one is described (which schedule, what failed, what the rerun did), never only
/// counted.
package struct UnreproducedFailure: Hashable, Sendable {
    /// The schedule's number in the search (from 1), as a finding's provenance gives it.
    package let schedule: Int
    /// What failed the first time.
    package let failure: ScheduleFailure
    /// How many steps the schedule had run when it failed.
    package let steps: Int
    /// What the rerun did: `passed`, `failed as … instead`, or that the shrunk replay passed.
    package let rerun: String
    /// The first line of what the check said the first time, when known.
    package let detail: String?

    /// The schedule's steps as Swift code on one line, with what they ran under, when known.
    package let literal: String?

    package init(
        schedule: Int, failure: ScheduleFailure, steps: Int, rerun: String, detail: String? = nil, literal: String? = nil
    ) {
        self.schedule = schedule
        self.failure = failure
        self.steps = steps
        self.rerun = rerun
        self.detail = detail
        self.literal = literal
    }

    /// One line: `schedule 137: Q5 (required) at step 9 ("Expected …"); run again: passed`.
    ///
    /// A rule's message is cut at 240 characters; a hang's is kept whole, on one line, since
    /// its end says what each running trigger had as evidence, the only clue to a hang that no
    /// replay shows again (the CI's `JitterBackoffOutbox` hang read `running: "sending pass #5" (`
    /// and stopped there).
    package var line: String {
        let limit = failure == .hang ? Int.max : 240
        let said = detail.map { " (\"\($0.split(separator: "\n").joined(separator: " / ").prefix(limit))\")" } ?? ""
        return "schedule \(schedule): \(failure) at step \(steps)\(said); run again: \(rerun)"
    }
}
