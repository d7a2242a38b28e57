import Foundation

/// Uploads payroll-profile changes made offline (bank account, tax withholding) in order, on an
/// `OperationQueue`: each change is an upload operation followed by an operation that records
/// its outcome, and the next upload depends on the previous outcome being recorded.
final class PayrollUploadCenter: @unchecked Sendable {
    static let retryableClientErrors: Set<Int> = [408, 429]
    static let baseDelay: TimeInterval = 1
    static let maxDelay: TimeInterval = 60
    /// Body fields never written to the activity log.
    static let protectedFields: Set<String> = ["bankAccountNumber", "routingNumber", "taxID"]

    private let store: PendingChangeStore
    private let transport: PayrollTransport
    private let now: @Sendable () -> Date
    private let operations: OperationQueue

    private let lock = NSLock()
    private var chained: Set<UUID> = []   // changes with an upload in the queue (this process only)
    private var stopped = false
    private var activity: [String] = []

    init(directory: URL, transport: @escaping PayrollTransport, now: @escaping @Sendable () -> Date = Date.init) throws {
        store = try PendingChangeStore(directory: directory)
        self.transport = transport
        self.now = now
        operations = OperationQueue()
        operations.name = "PayrollUploadCenter"
        operations.maxConcurrentOperationCount = 1
    }

    var activityLog: [String] { lock.withLock { activity } }

    /// Sign-out or going to the background: uploads already on the wire finish, later ones in
    /// the chain are skipped (their changes stay waiting for the next sync).
    func stopSending() {
        lock.withLock { stopped = true }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    // MARK: Submitting

    func submit(reference: String, payload: Data) throws {
        let change = PayrollPendingChange(id: UUID(), clientReference: reference, idempotencyKey: UUID().uuidString,
                                   payload: payload, createdAt: now())
        try store.insert(change)
        log("queued \(reference) \(Self.redactedSummary(of: payload))")
    }

    // MARK: Sending

    /// Chains an upload for every due change not already chained; calls `completion` once the
    /// last outcome is recorded.
    func sync(completion: @escaping @Sendable () -> Void) {
        let due: [PayrollPendingChange] = lock.withLock {
            stopped = false
            let fresh = store.due(at: now()).filter { !chained.contains($0.id) }
            chained.formUnion(fresh.map(\.id))
            return fresh
        }
        guard !due.isEmpty else { return completion() }

        var previous: Operation?
        var batch: [Operation] = []
        for change in due {
            let upload = UploadChangeOperation(change: change, transport: transport,
                                               shouldStop: { [weak self] in self?.isStopped ?? true })
            let record = BlockOperation { [self] in self.record(upload) }
            if let previous { upload.addDependency(previous) }
            record.addDependency(upload)
            batch += [upload, record]
            previous = record
        }
        let done = BlockOperation(block: completion)
        if let previous { done.addDependency(previous) }
        batch.append(done)
        operations.addOperations(batch, waitUntilFinished: false)
    }

    private func record(_ upload: UploadChangeOperation) {
        let id = upload.changeID
        defer { _ = lock.withLock { chained.remove(id) } }
        guard let change = store.change(id) else { return }
        let reference = change.clientReference

        switch upload.outcome {
        case .success(let answer) where (200..<300).contains(answer.statusCode):
            try? store.remove(id)
            log("\(reference) saved (\(answer.statusCode))")
        case .success(let answer) where (400..<500).contains(answer.statusCode)
                                        && !Self.retryableClientErrors.contains(answer.statusCode):
            // The payroll API's 4xx bodies are written for people ("Routing number must be 9
            // digits", "Tax form already filed for 2025"), and HR support asked to see them as-is
            // on the blocked-change screen rather than a bare status code.
            let reason = "\(answer.statusCode) \(Self.serverMessage(in: answer.body))"
            try? store.update(id) {
                $0.attempts += 1
                $0.state = .blocked
                $0.blockedReason = reason
            }
            log("\(reference) blocked: \(reason)")
        case .success(let answer):
            scheduleRetry(id, reference: reference, because: "HTTP \(answer.statusCode)")
        case .failure(let error):
            scheduleRetry(id, reference: reference, because: "no answer (\(type(of: error)))")
        case nil:
            break  // skipped by stopSending(): nothing was sent, nothing changes
        }
    }

    private func scheduleRetry(_ id: UUID, reference: String, because reason: String) {
        var delay: TimeInterval = 0
        try? store.update(id) { change in
            change.attempts += 1
            change.consecutiveFailures += 1
            let exponent = Double(min(change.consecutiveFailures - 1, 12))
            delay = min(Self.maxDelay, Self.baseDelay * pow(2, exponent))
            change.nextAttemptAt = now().addingTimeInterval(delay)
        }
        log("\(reference) will retry in \(Int(delay)) s: \(reason)")
    }

    // MARK: Activity log

    private func log(_ line: String) {
        lock.withLock { activity.append(line) }
    }

    /// Field names with their values, protected values masked whole (even short ones).
    static func redactedSummary(of payload: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            return "(\(payload.count) bytes)"
        }
        let fields = object.keys.sorted().map { name in
            protectedFields.contains(name) ? "\(name)=•••" : "\(name)=\(object[name].map { "\($0)" } ?? "")"
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The human-readable part of an error body: `message`, `error` or `detail`, else the text.
    static func serverMessage(in body: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            for field in ["message", "error", "detail"] {
                if let text = object[field] as? String { return String(text.prefix(300)) }
            }
        }
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "(no message)" : String(text.prefix(300))
    }
}
