import Foundation

/// An entry as the running outbox holds it.
struct CommentEntry: Sendable {
    let id: String
    let seq: Int
    let kind: CommentEntryKind
    let postID: String
    let target: String?
    let localID: String?
    let body: Data
    let createdAt: Date
    let idempotencyKey: String
    var attempts: Int = 0              // requests started, ever
    var consecutiveFailures: Int = 0   // drives the backoff
    var nextAttemptAt: Date? = nil
    var rejectedStatus: Int? = nil
    var rejectedErrorCode: String? = nil

    init(
        id: String = UUID().uuidString, seq: Int, kind: CommentEntryKind, postID: String, target: String?,
        localID: String?, body: Data, createdAt: Date, idempotencyKey: String = UUID().uuidString
    ) {
        self.id = id
        self.seq = seq
        self.kind = kind
        self.postID = postID
        self.target = target
        self.localID = localID
        self.body = body
        self.createdAt = createdAt
        self.idempotencyKey = idempotencyKey
    }

    /// Rebuilds a running entry from what the journal recorded.
    init(restoring stored: CommentStoredEntry) {
        self.init(
            id: stored.id, seq: stored.seq, kind: stored.kind, postID: stored.postID, target: stored.target,
            localID: stored.localID, body: stored.body, createdAt: stored.createdAt,
            idempotencyKey: stored.key)
        attempts = stored.attempts
        consecutiveFailures = stored.consecutiveFailures
        nextAttemptAt = stored.nextAttemptAt
        rejectedStatus = stored.rejectedStatus
        rejectedErrorCode = stored.rejectedErrorCode
    }

    var enqueuedLine: CommentJournalLine {
        CommentJournalLine(
            event: .enqueued, id: id, at: createdAt.timeIntervalSince1970, seq: seq, kind: kind.rawValue,
            postID: postID, target: target, localID: localID, key: idempotencyKey, body: body)
    }

    func snapshot(state: CommentEntrySnapshot.State) -> CommentEntrySnapshot {
        CommentEntrySnapshot(
            entryID: id, localID: localID, postID: postID, kind: kind.rawValue, idempotencyKey: idempotencyKey,
            body: body, createdAt: createdAt, attempts: attempts, nextAttemptAt: nextAttemptAt, state: state,
            statusCode: rejectedStatus, errorCode: rejectedErrorCode)
    }
}
