extension PagerSchedule.Step {
    /// The request this step answers, if it is an answer.
    var request: Int? {
        switch self {
        case .deliver(let request, _, _, _), .redeliver(let request), .fail(let request, _): request
        default: nil
        }
    }

    /// Whether this step is a first answer (a page or a failure, not a second delivery).
    var isFirstAnswer: Bool {
        switch self {
        case .deliver, .fail: true
        default: false
        }
    }

    /// The same step answering request `number` instead.
    func answering(_ number: Int) -> Self {
        switch self {
        case .deliver(_, let rows, let hasMore, let cursor):
            .deliver(request: number, rows: rows, hasMore: hasMore, cursor: cursor)
        case .redeliver: .redeliver(request: number)
        case .fail(_, let failure): .fail(request: number, failure)
        default: self
        }
    }
}
