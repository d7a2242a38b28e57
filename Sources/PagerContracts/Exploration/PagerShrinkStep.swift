import ConformanceKit

/// A pager schedule step as the shrinker sees it: an answer names its request by the step that
/// started it (and which of that step's requests it was), never by number, so removing an
/// unrelated step — which renumbers every later request — keeps each answer on its request, and
/// removing a trigger takes the answers to its requests with it. The write-queue shrinker names
/// sends the same way (``QueueShrinkStep``).
struct PagerShrinkStep: Hashable, Sendable {
    /// What the step does.
    enum Action: Hashable, Sendable {
        /// A trigger, or an answer to a request no step of the schedule started.
        case step(PagerSchedule.Step)
        /// `answer` given to the `ordinal`-th request the step `maker` started.
        case answer(maker: Int, ordinal: Int, PagerSchedule.Step)
    }

    /// The step's position in the schedule as found: its name, stable while others go.
    let origin: Int
    let action: Action

    /// The steps of `replay`, with each answer named by the step that started its request.
    static func steps(of replay: PagerSchedule.Replay) -> [PagerShrinkStep] {
        replay.steps.enumerated().map { origin, step in
            guard let number = step.request else { return PagerShrinkStep(origin: origin, action: .step(step)) }
            guard let maker = replay.started.firstIndex(where: { $0.contains(number) }) else {
                return PagerShrinkStep(origin: origin, action: .step(step.answering(0)))
            }
            let ordinal = number - replay.started[maker].lowerBound
            return PagerShrinkStep(origin: origin, action: .answer(maker: maker, ordinal: ordinal, step))
        }
    }

    /// Simpler variants, simplest first: simpler values (``ScheduleGenerator/simpler(_:)`` on
    /// the step), then for an answer the same answer to an earlier request, which may free the
    /// trigger that started the later one (a step that started no request drops the answer).
    static func simpler(_ step: PagerShrinkStep) -> [PagerShrinkStep] {
        switch step.action {
        case .step(let concrete):
            return ScheduleGenerator.simpler(concrete).map { PagerShrinkStep(origin: step.origin, action: .step($0)) }
        case .answer(let maker, let ordinal, let answer):
            let values = ScheduleGenerator.simpler(answer).map {
                PagerShrinkStep(origin: step.origin, action: .answer(maker: maker, ordinal: ordinal, $0))
            }
            let earlier = (0..<ordinal).map { (maker: maker, ordinal: $0) }
                + (0..<maker).reversed().map { (maker: $0, ordinal: 0) }
            return values + earlier.map {
                PagerShrinkStep(origin: step.origin, action: .answer(maker: $0.maker, ordinal: $0.ordinal, answer))
            }
        }
    }

    /// Replays shrinker steps against a fresh subject under `mode`, resolving each answer to
    /// the request its maker started in this run; an answer whose request was not started is
    /// left out. `Replay.steps` are the concrete steps that ran.
    ///
    /// Under `alreadyAvailable` the answers are resolved by an `immediate` run first (the one
    /// that plans what is handed over at registration), then replayed as concrete steps.
    static func replay(
        _ steps: [PagerShrinkStep], against subject: ExplorationSubject, mode: DeliveryMode?
    ) async -> PagerSchedule.Replay {
        let resolve: (Int, [Range<Int>]) -> PagerSchedule.Step? = { index, started in
            resolved(steps, at: index, started: started)
        }
        guard mode == .alreadyAvailable else {
            return await PagerSchedule.replay(steps.count, against: subject, mode: mode, step: resolve)
        }
        let concrete = await PagerSchedule.replay(
            steps.count, against: subject, mode: .immediate, throughFailures: true, step: resolve
        ).steps
        return await PagerSchedule.replay(concrete, against: subject, mode: .alreadyAvailable)
    }

    /// Step `index` of `steps` as a concrete step, given the requests each earlier step started.
    private static func resolved(_ steps: [PagerShrinkStep], at index: Int, started: [Range<Int>]) -> PagerSchedule.Step? {
        switch steps[index].action {
        case .step(let step):
            return step.request == 0 ? nil : step
        case .answer(let maker, let ordinal, let answer):
            guard let position = steps.prefix(index).firstIndex(where: { $0.origin == maker }),
                position < started.count, ordinal < started[position].count
            else { return nil }
            return answer.answering(started[position].lowerBound + ordinal)
        }
    }
}
