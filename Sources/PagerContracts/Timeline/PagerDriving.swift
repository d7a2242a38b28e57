/// The seam between a contract's timeline and one level of integration.
///
/// The model level drives a synchronous state machine; the async level drives real async code
/// behind a controlled page source. Each contract is written once, against this seam.
/// Requests are numbered by the order the driver reports them, starting at 0.
protocol PagerDriving: AnyObject {
    /// The adapter's declared capabilities.
    var capabilities: PagerCapabilities { get }

    /// Whether this level can deliver one response twice (a completion handler that runs
    /// twice). An async/await load resumes exactly once.
    var canDeliverTwice: Bool { get }

    /// Why a trigger fired now could not be settled by evidence, if so (async level, see
    /// `TimelineScheduler.nextTriggerUnobservable`); `nil` when it can.
    var triggerUnobservable: String? { get }

    /// How many times so far a trigger was taken as blocked by assumption rather than by
    /// evidence (async level, the task priorities spent); always 0 at the model level.
    var assumptionCount: Int { get }

    /// Settles the work the subject started while it was created and returns the requests
    /// that work made (a screen that loads its first page in `init`); none at the model level.
    func requestsMadeAtInit() async -> [PagePosition]
    /// Fires a trigger and returns what it started once the subject is settled.
    func perform(_ trigger: PagerTrigger) async throws -> TriggerOutcome

    /// Answers request `index` and returns any requests the answer made the pager start.
    func answer(request index: Int, with answer: PageAnswer) async throws -> [PagePosition]

    /// The requests (numbered from 1, in timeline order) whose answer the subject already
    /// holds while the timeline gives it only at its next step (`alreadyAvailable` delivery):
    /// the state is checked after that step, not before.
    var plannedAnswers: [Int] { get }

    /// Whether the subject already holds an answer to request `index` (from 0) that is not
    /// `answer`: the `immediate` replay that planned it numbered the requests otherwise.
    func holdsOtherAnswer(toRequest index: Int, than answer: PageAnswer) -> Bool

    /// Tells the driver a step was skipped: it did nothing, but it stands between a request
    /// and its answer, so that answer was not given right after the request.
    func stepSkipped()

    /// Whether request `later` (an index, from 0) comes from the same work as the answer to
    /// request `earlier`: a follow-up the pager chained (fill the screen), not a request of
    /// another trigger that was waiting.
    func isFollowUp(_ later: Int, of earlier: Int) -> Bool

    /// Whether the last trigger fired is still running, blocked on an open request (a query
    /// change that waits for the old request to finish).
    var lastTriggerWaits: Bool { get }

    /// What the user sees now, in the kit's terms.
    func state() async -> PagerState

    /// Notes for the transcript about the last step (how a trigger was found blocked, a
    /// cancellation the subject made).
    func takeNotes() -> [String]

    /// Ends the run: answers what is still open and waits for the subject's work to end.
    func finish() async
}

extension PagerDriving {
    func requestsMadeAtInit() async -> [PagePosition] { [] }
}
