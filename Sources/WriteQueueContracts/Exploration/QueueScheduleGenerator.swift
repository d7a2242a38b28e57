import ConformanceKit

/// Chooses the next step of a queue schedule from what the run has seen so far, at random
/// from a seed: only steps that can apply now (answers go to sends that are open, the clock
/// moves only when a pass waits on it).
///
/// Each schedule draws its own profile from the seed: one answer in ten, in three, or nine in
/// ten is a fault of any kind; or a *storm*, where nearly every answer is an unknown outcome
/// and the clock moves as soon as a pass waits, so a retry reaches the backoff cap within a
/// schedule. Mostly healthy runs (many operations flowing) and long runs of failures both occur.
struct QueueScheduleGenerator {
    private var random: SplitMix64
    private let faultsInTen: Int
    private let storm: Bool
    private var crashes = 0

    /// The generator of schedule `index` of the run seeded with `seed`.
    init(seed: UInt64, index: Int) {
        random = SplitMix64.forSchedule(index, of: seed)
        let profile = random.below(4)
        storm = profile == 3
        faultsInTen = [1, 3, 9, 9][profile]
    }

    /// Unknown outcomes only: what a storm answers.
    private static let unknownOutcomes: [QueueSchedule.Reply] = [
        .commitThen503, .commitThenDrop, .status(503), .connectionLost, .timeout, .status(500),
    ]

    /// How answers go wrong: unknown outcomes, then answers the queue must stop on or retry.
    private static let faults: [QueueSchedule.Reply] = [
        .commitThen503, .commitThen503, .commitThenDrop, .status(503), .status(503), .connectionLost, .timeout,
        .status(500), .conflict, .status(400), .status(429), .status(422),
    ]

    /// A step that can apply to `execution` now.
    mutating func next<A>(for execution: QueueScheduleExecution<A>) -> QueueSchedule.Step {
        let open = execution.openSends
        var choices: [(weight: Int, step: Int)] = [(3, 3)]
        if execution.submittedCount < (storm ? 2 : 5) {
            choices.append((2, 0))
            if !execution.createNumbers.isEmpty { choices.append((1, 1)) }
            if execution.updateCount < 3 { choices.append((1, 2)) }
        }
        if !open.isEmpty { choices.append((8, 4)) }
        if execution.someoneWaitsOnTheClock {
            choices.append((storm ? 24 : 4, 5))
        } else if execution.submittedCount > 0 {
            choices.append((storm ? 4 : 1, 5))  // a later sync's tick
        }
        if crashes < (storm ? 0 : 2) { choices.append((1, 6)) }
        switch random.pick(weighted: choices.map { ($0.weight, $0.step) }) {
        case 1:
            let creates = execution.createNumbers
            return .submitCopy(of: creates[random.below(creates.count)])
        case 2: return .update
        case 3: return .sendingPass
        case 4:
            // The newest open send most often: a retry storm is a chain of answers to it.
            let send = random.chance(1, in: 2) ? open[open.count - 1] : open[random.below(open.count)]
            let faults = storm ? Self.unknownOutcomes : Self.faults
            let reply = random.below(10) < faultsInTen ? faults[random.below(faults.count)] : .success
            return .answer(send: send, reply)
        case 5: return .advanceClock
        case 6:
            crashes += 1
            return .crash
        default: return .submit
        }
    }
}
