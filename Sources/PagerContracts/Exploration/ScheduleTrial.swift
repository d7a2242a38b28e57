import ConformanceKit
import Foundation

/// One schedule of a random search: generated step by step from its own generator and
/// checked after every step; at the async level, run under the delivery mode its generator
/// picks first, inside the watchdog.
///
/// An `alreadyAvailable` schedule is generated under `immediate` delivery (which records, as
/// the contracts do, the answers given right after the step that made each request) and then
/// replayed with those answers handed over at registration. The result depends only on the
/// seed and the schedule's index.
struct ScheduleTrial {
    let subject: ExplorationSubject
    let index: Int
    let maxSteps: Int
    let watchdog: Duration

    /// What the trial did: steps executed, and its failure, if any.
    typealias Outcome = ScheduleTrialOutcome<PagerSchedule.Step, DeliveryMode?>

    /// Runs the trial from `seed`.
    func run(seed: UInt64) async -> Outcome {
        var random = SplitMix64.forSchedule(index, of: seed)
        guard !subject.modes.isEmpty else {
            return await generate(&random, mode: nil, plan: AnswerPlan(), waits: nil, log: nil)
        }
        let mode = subject.modes[random.below(subject.modes.count)]
        let waits = TimelineRecorder(tier: .required)
        let log = StepLog()
        let (subject, index, maxSteps) = (self.subject, self.index, self.maxSteps)
        let start = random
        do {
            return try await withWatchdog(limit: watchdog, waitingFor: { waits.currentWait }) {
                var random = start
                let trial = ScheduleTrial(subject: subject, index: index, maxSteps: maxSteps, watchdog: .zero)
                return await trial.generate(&random, mode: mode, plan: AnswerPlan(), waits: waits, log: log)
            }
        } catch {
            // Only the watchdog throws here: the trial hung. A finding for a mutant; for a
            // correct subject, a defect of the kit's settling (the explorer's tests fail on it).
            let steps = log.steps
            return Outcome(
                steps: steps.count, hit: PagerExploration.Hit(index: index, steps: steps, failure: .hang, context: mode))
        }
    }

    /// Generates and applies up to `maxSteps` steps; for `alreadyAvailable`, then replays them.
    private func generate(
        _ random: inout SplitMix64, mode: DeliveryMode?, plan: AnswerPlan, waits: TimelineRecorder?,
        log: StepLog?
    ) async -> Outcome {
        let generationMode: DeliveryMode? = mode == .alreadyAvailable ? .immediate : mode
        var execution = await ScheduleExecution.make(subject, mode: generationMode, plan: plan, waits: waits)
        await execution.start()
        var taken: [ScheduleExecution.TakenStep] = []
        var steps: [PagerSchedule.Step] = []
        taken.reserveCapacity(maxSteps)
        steps.reserveCapacity(maxSteps)
        var count = 0
        var hit: PagerExploration.Hit?
        var endedByAssumption = false
        for _ in 0..<maxSteps {
            let step = ScheduleGenerator.randomStep(&random, for: execution)
            steps.append(step)
            log?.append(step)
            count += 1
            waits?.setWaiting(for: "the pager to handle step \(steps.count), \(step.swiftCode) (\(generationMode.map { "\($0)" } ?? "model"))")
            do {
                taken.append((step, try await execution.apply(step) ? .applied : .skipped))
            } catch let unobserved as ScheduleExecution.NotApplicable where unobserved.byAssumption {
                // Settled by assumption: go on without that trigger, or end there.
                guard
                    let fresh = await ScheduleExecution.restart(
                        after: execution, subject: subject, mode: generationMode, plan: plan, waits: waits,
                        replaying: taken)
                else {
                    endedByAssumption = true
                    break
                }
                execution = fresh
                taken.append((step, .unobserved))
            } catch is ScheduleExecution.NotApplicable {
                endedByAssumption = true
                break
            } catch {
                let failure = ScheduleExecution.Failure(error)
                hit = PagerExploration.Hit(
                    index: index, steps: steps, failure: failure.key, context: generationMode,
                    detail: failure.violation.summary)
                break
            }
        }
        if hit == nil, !endedByAssumption {
            waits?.setWaiting(for: "the liveness check at the end of the schedule (answering what is open, then a trigger)")
            do {
                try await execution.checkLiveness()
            } catch is ScheduleExecution.NotApplicable {
                endedByAssumption = true
            } catch {
                let failure = ScheduleExecution.Failure(error)
                hit = PagerExploration.Hit(
                    index: index, steps: steps, failure: failure.key, context: generationMode,
                    detail: failure.violation.summary)
            }
        }
        waits?.setWaiting(for: "the subject's work to end (answering what is open)")
        await execution.finish()
        let unobservable = execution.unobservableTriggers
        guard hit == nil, !endedByAssumption, mode == .alreadyAvailable else {
            return Outcome(steps: count, hit: hit, unobservableTriggers: unobservable, notApplicable: endedByAssumption)
        }
        log?.replaying(steps)
        let replay = await PagerSchedule.replay(steps, against: subject, mode: .alreadyAvailable, plan: plan, waits: waits)
        count += replay.applied.count
        var outcome = Outcome(
            steps: count, hit: nil, unobservableTriggers: unobservable + replay.unobservableTriggers,
            notApplicable: replay.notApplicable != nil)
        if let failure = replay.failure, replay.failingIndex != nil {
            // The whole schedule, not the prefix up to the failure: the answers handed over at
            // registration are planned from the `immediate` run of every step, and a request
            // made before the failure may be answered by a step after it. Cut at the failure,
            // the plan changed and the finding's replay passed (the twenty-second trial's
            // `SearchResultsViewModel`: 2 of 2 hits unreproduced, seed 1). Shrinking cuts it
            // where the failure stays.
            outcome.hit = PagerExploration.Hit(
                index: index, steps: steps, failure: failure.key, context: .alreadyAvailable,
                detail: failure.violation.summary)
        }
        return outcome
    }

    /// The steps of a trial so far, readable when the watchdog fires.
    private final class StepLog: Sendable {
        private let list = Locked<[PagerSchedule.Step]>(rawValue: [])

        var steps: [PagerSchedule.Step] { list.rawValue }

        func append(_ step: PagerSchedule.Step) {
            list.withLock { $0.append(step) }
        }

        func replaying(_ steps: [PagerSchedule.Step]) {
            list.withLock { $0 = steps }
        }
    }
}
