/// One kind of subject the explorer drives — pagers or write queues — described by what only
/// that kind knows: how one random schedule runs, how one prefix of the bounded exhaustive
/// search runs, and how a failing schedule shrinks into a finding.
///
/// Everything else is ``ScheduleExplorer``'s, written once for both kinds: the blocks of the
/// random search shared out to every core, the two-step subtrees deepened together, counting
/// what was skipped, keeping one finding per broken rule, and telling a finding whose replay
/// does not fail again from a real one.
package protocol ScheduleFamily: Sendable {
    /// One step of a schedule.
    associatedtype Step: Sendable
    /// What else a failing schedule ran under and its replay needs (a pager's delivery mode).
    associatedtype Context: Sendable

    /// The subject's name in the result.
    var subjectName: String { get }
    /// Schedules per block of the random search: the unit shared out to a core, and the grain
    /// of a result that never depends on timing.
    var blockSize: Int { get }
    /// The contexts the exhaustive search explores each subtree under, in order.
    var exhaustiveContexts: [Context] { get }

    /// Generates and runs random schedule `index` from `seed`, checking the rules after every
    /// step and liveness at its end.
    func trial(_ index: Int, seed: UInt64, options: ExplorationOptions) async -> ScheduleTrialOutcome<Step, Context>

    /// Runs `prefix` from scratch under `context`; when every step held, reads the state's
    /// fingerprint and, while the prefix is shorter than `depth`, the steps that can follow.
    func visit(_ prefix: [Step], context: Context, depth: Int, options: ExplorationOptions) async
        -> DeepeningSearch<Step, ScheduleFailure>.Visit

    /// `steps` on one line as Swift code, with what they ran under: how a failure whose replay
    /// passed is shown, so that it can be replayed by hand.
    func describe(_ steps: [Step], context: Context) -> String

    /// Shrinks `hit` (when `options.shrink`), replays the result and builds its finding: the
    /// report, the schedule literal and the regression test, citing `provenance`.
    func finding(for hit: ScheduleHit<Step, Context>, provenance: String, options: ExplorationOptions) async
        -> ExplorationFinding
}

/// A failing schedule as the search found it.
package struct ScheduleHit<Step: Sendable, Context: Sendable>: Sendable {
    /// Its number in the search (random: the schedule's index; exhaustive: prefixes run).
    package let index: Int
    /// The steps, up to and including the failing one.
    package let steps: [Step]
    /// What broke.
    package let failure: ScheduleFailure
    /// What it ran under.
    package let context: Context
    /// The first line of what the check said, when the family kept it: shown for a failure
    /// whose rerun passed, which has no finding to show it.
    package let detail: String?

    /// Creates a hit.
    package init(index: Int, steps: [Step], failure: ScheduleFailure, context: Context, detail: String? = nil) {
        self.index = index
        self.steps = steps
        self.failure = failure
        self.context = context
        self.detail = detail
    }
}

/// What one random schedule did.
package struct ScheduleTrialOutcome<Step: Sendable, Context: Sendable>: Sendable {
    /// Steps executed.
    package var steps: Int
    /// Its failure, if any.
    package var hit: ScheduleHit<Step, Context>?
    /// Triggers skipped because the kit could not have settled them by evidence.
    package var unobservableTriggers: SkippedTriggers
    /// Whether the schedule turned out not to apply (it ended early without a verdict).
    package var notApplicable: Bool

    /// Creates an outcome.
    package init(
        steps: Int, hit: ScheduleHit<Step, Context>? = nil, unobservableTriggers: SkippedTriggers = SkippedTriggers(), notApplicable: Bool = false
    ) {
        self.steps = steps
        self.hit = hit
        self.unobservableTriggers = unobservableTriggers
        self.notApplicable = notApplicable
    }
}
