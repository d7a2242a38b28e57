import Foundation

/// Uploads local changes with completion handlers, every step on one serial queue.
///
/// A flush claims the due changes (a lease in the file), then sends them one after another,
/// each from the completion of the previous one, and calls its completion when the batch is
/// done. Backoff is a due time in the file: later flushes skip a change until it is due.
final class PendingChangesUploader: @unchecked Sendable {
    struct UploadRequest: Sendable {
        let idempotencyKey: String
        let body: Data
    }

    typealias Send = @Sendable (
        _ request: UploadRequest, _ completion: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) -> Void

    /// URLSession's request timeout (60 s) plus slack: a lease outlives the request it covers.
    static let leaseDuration: TimeInterval = 65
    static let baseRetryDelay: TimeInterval = 1
    static let maxRetryDelay: TimeInterval = 30
    static let retryableStatusCodes: Set<Int> = [408, 429]

    private let queue = DispatchQueue(label: "app.pending-changes")
    private let fileURL: URL
    private let send: Send
    private let now: @Sendable () -> Date

    // Confined to `queue`.
    private var changes: [UploaderPendingChange]
    private var logLines: [String] = []

    init(directory: URL, send: @escaping Send, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("pending-changes.json")
        changes = try Self.load(from: fileURL)
        self.send = send
        self.now = now
    }

    // MARK: Public API

    func enqueue(label: String, body: Data, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        queue.async {
            let change = UploaderPendingChange(
                id: UUID(), label: label, idempotencyKey: UUID().uuidString, body: body,
                createdAt: self.now(), status: .pending, attempts: 0, notBefore: nil,
                leaseOwner: nil, leaseExpiresAt: nil, diagnostic: nil)
            var updated = self.changes
            updated.append(change)
            do {
                try self.save(updated)
                self.changes = updated
                self.logLines.append("\(label): queued")
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
    }

    func flush(completion: @escaping @Sendable () -> Void) {
        queue.async {
            let pass = UUID()
            let batch = self.claimDueChanges(for: pass)
            self.sendNext(batch[...], pass: pass, completion: completion)
        }
    }

    /// Returns once everything already queued on the serial queue has run.
    func waitUntilIdle() {
        queue.sync {}
    }

    func diagnostics(completion: @escaping @Sendable ([String]) -> Void) {
        queue.async { completion(self.logLines) }
    }

    static func storedChanges(in directory: URL) throws -> [UploaderPendingChange] {
        try load(from: directory.appendingPathComponent("pending-changes.json"))
    }

    // MARK: Sending (on `queue`)

    private func claimDueChanges(for pass: UUID) -> [UUID] {
        let current = now()
        var updated = changes
        var claimed: [UUID] = []
        for index in updated.indices.sorted(by: { updated[$0].createdAt < updated[$1].createdAt }) {
            let change = updated[index]
            guard change.status == .pending,
                  (change.notBefore ?? .distantPast) <= current,
                  (change.leaseExpiresAt ?? .distantPast) <= current
            else { continue }
            updated[index].leaseOwner = pass
            updated[index].leaseExpiresAt = current.addingTimeInterval(Self.leaseDuration)
            claimed.append(change.id)
        }
        guard !claimed.isEmpty else { return [] }
        do {
            try save(updated)
            changes = updated
            return claimed
        } catch {
            logLines.append("flush: cannot save the claim (\(error))")
            return []
        }
    }

    private func sendNext(_ remaining: ArraySlice<UUID>, pass: UUID, completion: @escaping @Sendable () -> Void) {
        guard let id = remaining.first else {
            completion()
            return
        }
        let rest = remaining.dropFirst()
        // Skip a change that was delivered, stopped or taken over by another pass meanwhile.
        guard let index = changes.firstIndex(where: { $0.id == id }),
              changes[index].status == .pending,
              changes[index].leaseOwner == pass
        else {
            sendNext(rest, pass: pass, completion: completion)
            return
        }
        var updated = changes
        updated[index].attempts += 1
        do {
            try save(updated)
            changes = updated
        } catch {
            logLines.append("\(updated[index].label): cannot save before sending (\(error))")
            sendNext(rest, pass: pass, completion: completion)
            return
        }
        let change = updated[index]
        send(UploadRequest(idempotencyKey: change.idempotencyKey, body: change.body)) { result in
            self.queue.async {
                self.finish(id, pass: pass, result: result)
                self.sendNext(rest, pass: pass, completion: completion)
            }
        }
    }

    private func finish(_ id: UUID, pass: UUID, result: Result<Int, any Error>) {
        guard let index = changes.firstIndex(where: { $0.id == id }) else { return }
        var updated = changes
        let label = updated[index].label
        switch result {
        case .success(let status) where (200..<300).contains(status):
            updated.remove(at: index)
            logLines.append("\(label): uploaded (HTTP \(status))")
        case .success(409):
            stop(&updated[index], reason: "HTTP 409: this idempotency key was already used with another body")
        case .success(let status) where Self.retryableStatusCodes.contains(status) || (500..<600).contains(status):
            guard updated[index].leaseOwner == pass else { return }  // the new owner retries it
            scheduleRetry(&updated[index], reason: "HTTP \(status)")
        case .success(let status):
            stop(&updated[index], reason: "HTTP \(status): rejected")
        case .failure(let error):
            guard updated[index].leaseOwner == pass else { return }
            scheduleRetry(&updated[index], reason: "no answer (\(error))")
        }
        do {
            try save(updated)
            changes = updated
        } catch {
            logLines.append("\(label): cannot save the result (\(error))")
        }
    }

    private func scheduleRetry(_ change: inout UploaderPendingChange, reason: String) {
        let delay = min(Self.maxRetryDelay, Self.baseRetryDelay * pow(2, Double(min(change.attempts - 1, 30))))
        change.notBefore = now().addingTimeInterval(delay)
        change.leaseOwner = nil
        change.leaseExpiresAt = nil
        logLines.append("\(change.label): attempt \(change.attempts) failed: \(reason); retry in \(delay) s")
    }

    private func stop(_ change: inout UploaderPendingChange, reason: String) {
        change.status = .needsAttention
        change.notBefore = nil
        change.leaseOwner = nil
        change.leaseExpiresAt = nil
        change.diagnostic = reason
        logLines.append("\(change.label): stopped: \(reason)")
    }

    // MARK: Storage

    private func save(_ snapshot: [UploaderPendingChange]) throws {
        try JSONEncoder().encode(snapshot).write(to: fileURL, options: .atomic)
    }

    private static func load(from url: URL) throws -> [UploaderPendingChange] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([UploaderPendingChange].self, from: Data(contentsOf: url))
    }
}
