import ConformanceKit

extension ScheduleExecution {
    /// What became of a step already run in a schedule, as a restart replays it.
    enum StepCourse: Equatable {
        /// The step applied.
        case applied
        /// The step did not apply and changed nothing (a trigger skipped in advance, an
        /// answer to nothing open).
        case skipped
        /// A trigger settled by assumption: the schedule went on without it, from a replay.
        case unobserved
    }

    /// A step already run in a schedule, and its course.
    typealias TakenStep = (step: PagerSchedule.Step, course: StepCourse)

    /// Starts a schedule again on a fresh subject after one of its triggers was settled by
    /// assumption, so that the schedule goes on with that trigger skipped as unobservable.
    ///
    /// Whether a trigger can be observed is only known once it runs: one that returns at once
    /// or joins a load is seen at any priority, one that spawns its load and awaits it needs a
    /// probe's rung. So a trigger starts whenever one rung is left for it, and when it turned
    /// out to need a second one, the schedule is replayed without it (`previous` is finished
    /// first). Replays of the same steps meet the same assumption at the same step and take
    /// the same course, so a finding's schedule replays as it was found.
    /// - Parameters:
    ///   - previous: The execution whose next step was settled by assumption.
    ///   - taken: The steps it ran before that one, with their course.
    /// - Returns: The fresh execution, ready for the step after the unobserved one; `nil`
    ///   when the replay did not take the same course (a step failed, or applied where it was
    ///   skipped): the schedule then ends there, as unobservable.
    static func restart(
        after previous: ScheduleExecution, subject: ExplorationSubject, mode: DeliveryMode?,
        plan: AnswerPlan, waits: TimelineRecorder?, replaying taken: [TakenStep]
    ) async -> ScheduleExecution? {
        await previous.finish()
        let fresh = await make(subject, mode: mode, plan: plan, waits: waits)
        await fresh.start()
        for (step, course) in taken {
            if course == .unobserved {
                fresh.passUnobservedStep()
                continue
            }
            guard let applied = try? await fresh.apply(step), applied == (course == .applied) else {
                await fresh.finish()
                return nil
            }
        }
        fresh.passUnobservedStep(countedBy: previous)
        return fresh
    }
}
