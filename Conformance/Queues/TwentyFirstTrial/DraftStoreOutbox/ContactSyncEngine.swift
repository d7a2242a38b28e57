import Foundation

/// Sends the contact book's offline changes. Edits to one contact go out in the order they were
/// made; a new edit to a contact whose previous edit has not left the device yet replaces that
/// edit's body instead of queueing a second request (the server only needs the latest fields).
actor ContactSyncEngine {
    static let retryableClientErrors: Set<Int> = [408, 429]
    static let baseDelay: TimeInterval = 2
    static let maximumDelay: TimeInterval = 30

    typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> Int

    private let context: ManagedContext
    private let launch: Int
    private let post: Post
    private let now: @Sendable () -> Date

    /// `launch` tells this process's claims from those a previous, dead process left in the store.
    init(store: PersistentStore, launch: Int, post: @escaping Post, now: @escaping @Sendable () -> Date = Date.init) {
        self.context = ManagedContext(store: store)
        self.launch = launch
        self.post = post
        self.now = now
    }

    func record(label: String, kind: ChangeKind, body: Data) throws {
        if let contactID = kind.contactID, let unsent = unsentEdit(of: contactID) {
            unsent.body = body
            unsent.label = label
        } else {
            let created = now()
            context.insert(ChangeRow(
                objectID: UUID(), label: label, kind: kind, idempotencyKey: UUID().uuidString,
                body: body, createdAt: created, attempts: 0, dueAt: created,
                sendingLaunch: nil, stopReason: nil))
        }
        try context.save()
    }

    func sync() async {
        while !Task.isCancelled, let change = nextSendable() {
            change.sendingLaunch = launch
            do { try context.save() } catch { return }

            let result: Result<Int, any Error>
            do { result = .success(try await post(change.idempotencyKey, change.body)) }
            catch { result = .failure(error) }

            apply(result, to: change)
            try? context.save()
        }
    }

    /// An edit no request has carried yet: its key has never been seen by the server, so it may
    /// take a newer body. Anything ever claimed for sending keeps the body it went out with.
    private func unsentEdit(of contactID: String) -> ContactPendingChange? {
        context.registered.last {
            $0.kind.contactID == contactID && $0.stopReason == nil
                && $0.attempts == 0 && $0.sendingLaunch == nil
        }
    }

    private func nextSendable() -> ContactPendingChange? {
        let moment = now()
        var blockedContacts: Set<String> = []
        for change in context.registered.sorted(by: { $0.createdAt < $1.createdAt }) where change.stopReason == nil {
            let contactID = change.kind.contactID
            if let contactID, blockedContacts.contains(contactID) { continue }
            if let contactID { blockedContacts.insert(contactID) }
            let claimedHere = change.sendingLaunch == launch
            if !claimedHere && change.dueAt <= moment { return change }
        }
        return nil
    }

    private func apply(_ result: Result<Int, any Error>, to change: ContactPendingChange) {
        change.sendingLaunch = nil
        switch result {
        case .success(let status) where (200..<300).contains(status):
            context.delete(change)
        case .success(409):
            change.stopReason = "409 conflict: this key was used with another body"
        case .success(let status) where Self.retryableClientErrors.contains(status):
            reschedule(change)
        case .success(let status) where (400..<500).contains(status):
            change.stopReason = "\(status) rejected by the server"
        case .success, .failure:
            reschedule(change)
        }
    }

    private func reschedule(_ change: ContactPendingChange) {
        change.attempts += 1
        let delay = min(Self.maximumDelay, Self.baseDelay * pow(2, Double(min(change.attempts - 1, 20))))
        change.dueAt = now().addingTimeInterval(delay)
    }
}
