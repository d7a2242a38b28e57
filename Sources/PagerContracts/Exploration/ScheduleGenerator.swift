import ConformanceKit

/// Chooses the next step of a schedule from what the execution has seen so far: at random
/// from a seed, or every member of a small fixed alphabet (bounded exhaustive search).
enum ScheduleGenerator {
    /// A random step that can apply now.
    ///
    /// Pages draw 0–3 rows from a pool of eight IDs in any order, so duplicates across pages,
    /// pages that add nothing and unsorted pages all occur; about one page in five says
    /// `hasMore: false`; a cursor response occasionally stalls or repeats an earlier cursor.
    static func randomStep(_ random: inout SplitMix64, for execution: ScheduleExecution)
        -> PagerSchedule.Step
    {
        let capabilities = execution.capabilities
        let open = execution.openNumbers
        let canRedeliver = execution.canDeliverTwice && execution.hasAnsweredWithPage
        // The weighted choice, drawn as `SplitMix64.pick(weighted:)` would draw it from
        // [(4, bottom), (1, retry), (1, query), (1, refresh)?, (1, fill)?, (7, deliver)?,
        // (2, fail)?, (1, redeliver)?] (the same roll, the same kinds in the same order), without
        // building an array at every step: this is the explorer's innermost loop.
        let refresh = capabilities.triggers.contains(.refresh)
        let fill = capabilities.triggers.contains(.fillScreen)
        let total = 6 + (refresh ? 1 : 0) + (fill ? 1 : 0) + (open.isEmpty ? 0 : 9) + (canRedeliver ? 1 : 0)
        var roll = random.below(total)
        var kind = 0
        for (candidate, weight) in Self.weights.enumerated() {
            let present =
                switch candidate {
                case 3: refresh
                case 4: fill
                case 5, 6: !open.isEmpty
                case 7: canRedeliver
                default: true
                }
            guard present else { continue }
            kind = candidate
            if roll < weight { break }
            roll -= weight
        }
        switch kind {
        case 1: return .retry
        case 2: return .changeQuery
        case 3: return .refresh
        case 4: return .fillScreen
        case 5:
            let number = open[random.below(open.count)]
            let rows = (0..<Self.rowCounts[random.below(Self.rowCounts.count)]).map { _ in 1 + random.below(8) }
            let hasMore = !random.chance(1, in: 5)
            var cursor = PagerSchedule.CursorAnswer.next
            if capabilities.pagination == .cursors && hasMore {
                let pick = random.below(10)
                cursor = pick == 0 ? .stalled : pick == 1 ? .repeated : .next
            }
            return .deliver(request: number, rows: rows, hasMore: hasMore, cursor: cursor)
        case 6:
            let number = open[random.below(open.count)]
            return .fail(request: number, Self.failures[random.below(Self.failures.count)])
        case 7:
            let answered = execution.answeredWithPage
            return .redeliver(request: answered[random.below(answered.count)].number)
        default:
            return .bottomReached
        }
    }

    /// The weight of each kind of step, in the order drawn: bottom, retry, query change,
    /// refresh, fill (when declared), deliver, fail (when a request is open), redeliver (when a
    /// page can be delivered again).
    private static let weights = [4, 1, 1, 1, 1, 7, 2, 1]
    /// How many rows a random page has, drawn uniformly from this list.
    private static let rowCounts = [0, 1, 1, 2, 2, 2, 3, 3, 3]
    /// The failures a random step gives, drawn uniformly from this list.
    private static let failures: [PageFailure] = [.timeout, .timeout, .serverError(status: 503), .cancelled]

    /// Every step of the exhaustive alphabet that can apply now: the triggers the adapter
    /// declares; for each open request two fresh descending rows with and without more pages,
    /// an empty page, a timeout and a cancellation error (and for cursors, a stalled and a
    /// repeated cursor); a second delivery of each page already delivered.
    static func alphabet(for execution: ScheduleExecution) -> [PagerSchedule.Step] {
        let capabilities = execution.capabilities
        var steps: [PagerSchedule.Step] = [.bottomReached, .retry, .changeQuery]
        if capabilities.triggers.contains(.refresh) { steps.append(.refresh) }
        if capabilities.triggers.contains(.fillScreen) { steps.append(.fillScreen) }
        for request in execution.unanswered {
            let number = request.number
            let fresh = [2 * number, 2 * number - 1]
            steps += [
                .deliver(request: number, rows: fresh),
                .deliver(request: number, rows: fresh, hasMore: false),
                .deliver(request: number, rows: []),
                .fail(request: number, .timeout),
                .fail(request: number, .cancelled),
            ]
            if capabilities.pagination == .cursors {
                steps += [
                    .deliver(request: number, rows: fresh, cursor: .stalled),
                    .deliver(request: number, rows: fresh, cursor: .repeated),
                ]
            }
        }
        if execution.canDeliverTwice {
            steps += execution.answeredWithPage.map { .redeliver(request: $0.number) }
        }
        return steps
    }

    /// Simpler replacements for `step`, simplest first: fewer and smaller rows, `hasMore`
    /// left at its default, a fresh cursor, a plain timeout, a bottom trigger instead of a retry.
    static func simpler(_ step: PagerSchedule.Step) -> [PagerSchedule.Step] {
        switch step {
        case .retry, .fillScreen, .refresh:
            return [.bottomReached]
        case .deliver(let request, let rows, let hasMore, let cursor):
            var candidates: [PagerSchedule.Step] = []
            if !rows.isEmpty { candidates.append(.deliver(request: request, rows: [], hasMore: hasMore, cursor: cursor)) }
            for index in rows.indices where rows.count > 1 {
                var fewer = rows
                fewer.remove(at: index)
                candidates.append(.deliver(request: request, rows: fewer, hasMore: hasMore, cursor: cursor))
            }
            for index in rows.indices where rows[index] > 1 {
                var smaller = rows
                smaller[index] -= 1
                candidates.append(.deliver(request: request, rows: smaller, hasMore: hasMore, cursor: cursor))
            }
            if !hasMore { candidates.append(.deliver(request: request, rows: rows, hasMore: true, cursor: cursor)) }
            if cursor != .next { candidates.append(.deliver(request: request, rows: rows, hasMore: hasMore, cursor: .next)) }
            if cursor == .repeated { candidates.append(.deliver(request: request, rows: rows, hasMore: hasMore, cursor: .stalled)) }
            return candidates
        case .fail(let request, let failure) where failure != .timeout:
            return [.fail(request: request, .timeout)]
        default:
            return []
        }
    }
}
