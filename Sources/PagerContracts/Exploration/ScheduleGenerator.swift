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
        let open = execution.unanswered
        let answered = execution.canDeliverTwice ? execution.answeredWithPage : []
        var choices: [(weight: Int, kind: Int)] = [(4, 0), (1, 1), (1, 2)]
        if capabilities.triggers.contains(.refresh) { choices.append((1, 3)) }
        if capabilities.triggers.contains(.fillScreen) { choices.append((1, 4)) }
        if !open.isEmpty { choices += [(7, 5), (2, 6)] }
        if !answered.isEmpty { choices.append((1, 7)) }
        switch random.pick(weighted: choices.map { ($0.weight, $0.kind) }) {
        case 1: return .retry
        case 2: return .changeQuery
        case 3: return .refresh
        case 4: return .fillScreen
        case 5:
            let request = open[random.below(open.count)]
            let rowCounts = [0, 1, 1, 2, 2, 2, 3, 3, 3]
            let rows = (0..<rowCounts[random.below(rowCounts.count)]).map { _ in 1 + random.below(8) }
            let hasMore = !random.chance(1, in: 5)
            var cursor = PagerSchedule.CursorAnswer.next
            if capabilities.pagination == .cursors && hasMore {
                let pick = random.below(10)
                cursor = pick == 0 ? .stalled : pick == 1 ? .repeated : .next
            }
            return .deliver(request: request.number, rows: rows, hasMore: hasMore, cursor: cursor)
        case 6:
            let request = open[random.below(open.count)]
            let failures: [PageFailure] = [.timeout, .timeout, .serverError(status: 503), .cancelled]
            return .fail(request: request.number, failures[random.below(failures.count)])
        case 7:
            return .redeliver(request: answered[random.below(answered.count)].number)
        default:
            return .bottomReached
        }
    }

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
