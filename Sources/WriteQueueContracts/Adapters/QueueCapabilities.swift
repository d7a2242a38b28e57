import ConformanceKit

/// What a write-queue adapter declares about its queue, so the kit checks the rule and not one
/// way of meeting it.
///
/// A contract that needs something the adapter does not declare is reported as not applicable,
/// with the reason, never as passed.
public struct QueueCapabilities: Hashable, Sendable {
    /// What 409 and 422 mean to the queue's server (Q4). The source document's profile by default.
    public var conflictProfile: ConflictProfile
    /// Client-error statuses the queue retries with the same key after a backoff (Q9), such as
    /// 408 and 429. 400 and 422 are terminal whatever is declared here. A status declared here
    /// is retried even when ``terminalStatusCodes`` lists it too (declaring 401 retryable is
    /// enough: the default terminal set need not be rewritten). Declare what your
    /// server's API contract says, not what your code does: Q9 checks the code against the
    /// declaration, so a declaration copied from the code hides the code's mistakes.
    public var retryableStatusCodes: Set<Int>
    /// Client-error statuses the queue treats as terminal: the task stops with a diagnostic and
    /// is never resent (Q9). Any other 4xx, except 409, must not be retried blindly either. A
    /// status also in ``retryableStatusCodes`` counts as retryable (except 400 and 422).
    public var terminalStatusCodes: Set<Int>
    /// Whether the adapter reports diagnostics or log lines (Q10 needs them).
    public var exposesDiagnostics: Bool
    /// Whether the storage is on disk, so a real child process can be killed and the parent
    /// can relaunch from what it left.
    public var storageIsOnDisk: Bool
    /// Whether two queue instances may run over one storage at once (an app and its
    /// extension). Q7 then also checks two instances, not only two passes on one instance.
    public var sharesStorageBetweenInstances: Bool
    /// Whether the queue merges pending updates to the same entity (Q12 judges the order of
    /// updates only for a queue that merges them; one that does not merge passes it by sending
    /// every body, in any order).
    public var coalescesUpdates: Bool
    /// How the queue waits before a retry (Q8): capped, without a cap, or not at all.
    public var backoff: QueueBackoff
    /// The longest delay between two retries, when the queue declares one.
    public var backoffCap: Duration? { backoff.cap }
    /// Body fields whose values are sensitive (Q10 puts a canary value in each of them and
    /// checks no diagnostic holds it). The app's own names: `["password", "cardNumber", "cvv"]`;
    /// `["card"]` by default.
    public var sensitiveFields: Set<String>
    /// How long the queue lets one request run before it gives up on it (its
    /// `URLRequest.timeoutInterval`): Q7 moves the clock this close to it while a request is in
    /// flight, past any shorter send lease, and starts a second pass. 60 s (URLSession's
    /// default) by default.
    public var requestTimeout: Duration
    /// Where requests carry the key and the operation's body; the body with the key in a header
    /// by default.
    public var requestLayout: RequestLayout
    /// Whether the queue starts a sending pass by itself when it launches (an app that flushes
    /// its outbox at start). The kit then starts one pass, through `runSendingPass`, right
    /// after every launch, concurrently with what the timeline does next.
    public var sendsOnLaunch: Bool

    /// Creates a declaration.
    ///
    /// - Parameters:
    ///   - conflictProfile: What 409 and 422 mean; ``ConflictProfile/sourceDocument`` by default.
    ///   - retryableStatusCodes: 4xx statuses retried after a backoff; 408 and 429 by default.
    ///   - terminalStatusCodes: 4xx statuses that stop the task; 400, 401, 403, 404, 410, 413
    ///     and 422 by default.
    ///   - exposesDiagnostics: Whether log lines and diagnostics are reported.
    ///   - storageIsOnDisk: Whether the storage is a directory or file.
    ///   - sharesStorageBetweenInstances: Whether two live instances may share one storage.
    ///   - coalescesUpdates: Whether pending updates to one entity are merged.
    ///   - backoff: How the queue waits before a retry; ``QueueBackoff/none`` by default.
    ///   - sendsOnLaunch: Whether a launch starts a sending pass by itself.
    ///   - sensitiveFields: Body fields whose values never belong in a diagnostic; `["card"]`
    ///     by default.
    ///   - requestTimeout: How long one request may run; 60 s by default.
    ///   - requestLayout: Where requests carry the key and the operation's body.
    public init(
        conflictProfile: ConflictProfile = .sourceDocument,
        retryableStatusCodes: Set<Int> = [408, 429],
        terminalStatusCodes: Set<Int> = [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: Bool = false,
        storageIsOnDisk: Bool = false,
        sharesStorageBetweenInstances: Bool = false,
        coalescesUpdates: Bool = false,
        backoff: QueueBackoff = .none,
        sendsOnLaunch: Bool = false,
        sensitiveFields: Set<String> = ["card"],
        requestTimeout: Duration = .seconds(60),
        requestLayout: RequestLayout = .plain
    ) {
        self.conflictProfile = conflictProfile
        self.retryableStatusCodes = retryableStatusCodes
        self.terminalStatusCodes = terminalStatusCodes
        self.exposesDiagnostics = exposesDiagnostics
        self.storageIsOnDisk = storageIsOnDisk
        self.sharesStorageBetweenInstances = sharesStorageBetweenInstances
        self.coalescesUpdates = coalescesUpdates
        self.backoff = backoff
        self.sendsOnLaunch = sendsOnLaunch
        self.sensitiveFields = sensitiveFields
        self.requestTimeout = requestTimeout
        self.requestLayout = requestLayout
    }

    /// Whether the queue must retry `status` (a client error) with the same key.
    ///
    /// 400 and 422 never are, whatever is declared; a status declared retryable is, even when
    /// the terminal set (by default, or by mistake) lists it too; a 4xx declared neither way
    /// must not be retried blindly, so it counts as terminal.
    package func retries(clientError status: Int) -> Bool {
        guard status != 400, status != 422 else { return false }
        return retryableStatusCodes.contains(status)
    }

    /// Whether an answer with `status` ends its task: a 409 under the source document's
    /// conflict profile, or a client error not declared retryable. The queue must never send
    /// that task again (Q4, Q9).
    package func makesFinal(_ status: Int) -> Bool {
        if status == 409 { return conflictProfile == .sourceDocument }
        guard (400..<500).contains(status) else { return false }
        return !retries(clientError: status)
    }

    /// Whether `status` says the key was reused with another body (409, or the declared
    /// profile's mismatch status): resending after it breaks Q4, after any other final
    /// answer Q9.
    package func isConflict(_ status: Int) -> Bool {
        status == 409 || status == conflictProfile.mismatchStatus
    }
}
