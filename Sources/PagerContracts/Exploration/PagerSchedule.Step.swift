extension PagerSchedule {
    /// One event of a schedule: a UI trigger, or an answer to a request by number.
    public enum Step: Hashable, Sendable, CustomStringConvertible {
        /// The user reached the bottom of the list.
        case bottomReached
        /// The filter changed to the other query (`B`, then back to `A`, then `B`, …): a new generation each time.
        case changeQuery
        /// Pull-to-refresh: a new generation of the same query (adapters that declare it).
        case refresh
        /// The user tapped retry.
        case retry
        /// A trigger that loads pages until the screen is full (adapters that declare it).
        case fillScreen
        /// The first answer to request `request`: a page of `rows` (the kit's row IDs, in the
        /// server's order). For cursor pagination the response carries the cursor `cursor`
        /// says.
        case deliver(request: Int, rows: [Int], hasMore: Bool = true, cursor: CursorAnswer = .next)
        /// Request `request`'s page delivered again, identical: a completion handler that runs
        /// twice (skipped at a level that resumes a load exactly once).
        case redeliver(request: Int)
        /// The first answer to request `request` is a failure.
        case fail(request: Int, PageFailure)

        /// The step as Swift code, such as `.deliver(request: 2, rows: [3, 4], hasMore: false)`.
        package var swiftCode: String {
            switch self {
            case .bottomReached: return ".bottomReached"
            case .changeQuery: return ".changeQuery"
            case .refresh: return ".refresh"
            case .retry: return ".retry"
            case .fillScreen: return ".fillScreen"
            case .deliver(let request, let rows, let hasMore, let cursor):
                var text = ".deliver(request: \(request), rows: [\(rows.map(String.init).joined(separator: ", "))]"
                if !hasMore { text += ", hasMore: false" }
                if cursor != .next { text += ", cursor: .\(cursor)" }
                return text + ")"
            case .redeliver(let request): return ".redeliver(request: \(request))"
            case .fail(let request, let failure):
                let code =
                    switch failure {
                    case .timeout: ".timeout"
                    case .cancelled: ".cancelled"
                    case .serverError(let status): ".serverError(status: \(status))"
                    }
                return ".fail(request: \(request), \(code))"
            }
        }

        public var description: String { swiftCode }
    }

    /// The cursor a delivered page carries (cursor pagination only).
    public enum CursorAnswer: String, Hashable, Sendable, CustomStringConvertible {
        /// A fresh cursor for the next page (none when `hasMore` is false).
        case next
        /// The cursor the request carried: the server's cursor did not advance.
        case stalled
        /// The first cursor requested in the request's query: a cycle (A, B, A).
        case repeated

        public var description: String { rawValue }
    }
}
