/// What a write-queue adapter declares about its queue, so the kit checks the rule and not one
/// way of meeting it.
///
/// A contract that needs something the adapter does not declare is reported as not applicable,
/// with the reason, never as passed.
public struct QueueCapabilities: Hashable, Sendable {
    /// What 409 and 422 mean to the queue's server (Q4). The source document's profile by default.
    public var conflictProfile: ConflictProfile
    /// Client-error statuses the queue retries with the same key after a backoff (Q9), such as
    /// 408 and 429. 400 and 422 are terminal whatever is declared here.
    public var retryableStatusCodes: Set<Int>
    /// Client-error statuses the queue treats as terminal: the task stops with a diagnostic and
    /// is never resent (Q9). Any other 4xx, except 409, must not be retried blindly either.
    public var terminalStatusCodes: Set<Int>
    /// Whether the adapter reports diagnostics or log lines (Q10 needs them).
    public var exposesDiagnostics: Bool
    /// Whether the storage is on disk, so a real child process can be killed and the parent
    /// can relaunch from what it left.
    public var storageIsOnDisk: Bool
    /// Whether two queue instances may run over one storage at once (an app and its
    /// extension). Q7 then also checks two instances, not only two passes on one instance.
    public var sharesStorageBetweenInstances: Bool
    /// Whether the queue merges pending updates to the same entity (Q12 checks every queue;
    /// one that does not merge passes it by sending every body in order).
    public var coalescesUpdates: Bool
    /// The longest delay between two retries. `nil` when the queue does not back off on the
    /// injected clock, which makes Q8 not applicable.
    public var backoffCap: Duration?
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
    ///   - backoffCap: The declared cap of the retry delay, or `nil`.
    ///   - sendsOnLaunch: Whether a launch starts a sending pass by itself.
    public init(
        conflictProfile: ConflictProfile = .sourceDocument,
        retryableStatusCodes: Set<Int> = [408, 429],
        terminalStatusCodes: Set<Int> = [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: Bool = false,
        storageIsOnDisk: Bool = false,
        sharesStorageBetweenInstances: Bool = false,
        coalescesUpdates: Bool = false,
        backoffCap: Duration? = nil,
        sendsOnLaunch: Bool = false
    ) {
        self.conflictProfile = conflictProfile
        self.retryableStatusCodes = retryableStatusCodes
        self.terminalStatusCodes = terminalStatusCodes
        self.exposesDiagnostics = exposesDiagnostics
        self.storageIsOnDisk = storageIsOnDisk
        self.sharesStorageBetweenInstances = sharesStorageBetweenInstances
        self.coalescesUpdates = coalescesUpdates
        self.backoffCap = backoffCap
        self.sendsOnLaunch = sendsOnLaunch
    }

    /// Whether the queue must retry `status` (a client error) with the same key.
    ///
    /// 400 and 422 never are, whatever is declared; a 4xx that is neither declared retryable
    /// nor terminal must not be retried blindly, so it counts as terminal.
    public func retries(clientError status: Int) -> Bool {
        guard status != 400, status != 422 else { return false }
        return retryableStatusCodes.contains(status) && !terminalStatusCodes.contains(status)
    }
}
