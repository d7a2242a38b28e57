/// How ``FileWriteQueue`` classifies answers and spaces retries.
package struct RetryPolicy: Hashable, Sendable {
    /// The first retry delay; each further unknown outcome doubles it.
    package var baseDelay: Duration
    /// The longest delay between two retries.
    package var maximumDelay: Duration
    /// Client errors retried with the same key after a backoff. 400 and 422 never are.
    package var retryableClientErrors: Set<Int>
    /// `true` when the server follows the IETF idempotency-key draft: 409 means "still being
    /// processed" (retry later) and 422 means "key used with a different body" (stop). `false`
    /// (the source document's contract): 409 means "different body" and stops the task.
    package var conflictMeansInFlight: Bool

    /// Creates a policy.
    package init(
        baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30),
        retryableClientErrors: Set<Int> = [408, 429], conflictMeansInFlight: Bool = false
    ) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.retryableClientErrors = retryableClientErrors
        self.conflictMeansInFlight = conflictMeansInFlight
    }

    /// The delay before retry number `attempt` (1 for the first retry): doubling, capped.
    package func delay(afterAttempt attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        return min(maximumDelay, baseDelay * (1 << doublings))
    }

    /// What an HTTP status means for the task that got it.
    package func verdict(forStatus status: Int) -> Verdict {
        switch status {
        case 200..<300:
            return .completed
        case 409 where conflictMeansInFlight:
            return .retry
        case 409:
            return .stop("409: the server holds a different body under this key")
        case 400, 422:
            return .stop("\(status): the server rejected the request; resending the same bytes cannot help")
        case 400..<500:
            return retryableClientErrors.contains(status) ? .retry : .stop("\(status): rejected by the server")
        default:
            return .retry
        }
    }

    /// What an answer means for its task.
    package enum Verdict: Hashable, Sendable {
        /// An explicit success: the task is done.
        case completed
        /// The outcome is unknown or temporary: keep the task, retry after a backoff.
        case retry
        /// Stop automatic sending; keep the task with this diagnostic.
        case stop(String)
    }
}
