import Foundation

/// The networking layer's upload call: posts `body` with an `Idempotency-Key` header and
/// calls back with the HTTP status, or with the transport error.
typealias UploadCall = @Sendable (
    _ key: String, _ body: Data, _ completion: @escaping @Sendable (Result<Int, any Error>) -> Void
) -> Void

/// An `Operation` that stays executing until its upload calls back.
final class UploadOperation: Operation, @unchecked Sendable {
    private let state = NSLock()
    private var executing = false
    private var finished = false
    private let work: (_ done: @escaping @Sendable () -> Void) -> Void

    init(work: @escaping (_ done: @escaping @Sendable () -> Void) -> Void) {
        self.work = work
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.withLock { executing } }
    override var isFinished: Bool { state.withLock { finished } }

    override func start() {
        guard !isCancelled else { return markFinished() }
        willChangeValue(forKey: "isExecuting")
        state.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        work { [self] in markFinished() }
    }

    private func markFinished() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        state.withLock { executing = false; finished = true }
        didChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isExecuting")
    }
}

/// Offline mutations for the field-service app. Each flush turns the due records into upload
/// operations; uploads for one entity depend on each other, so a job's edits reach the server in
/// the order the technician made them, while different jobs upload side by side.
final class EntityLaneOutbox: @unchecked Sendable {
    static let retryableClientErrors: Set<Int> = [408, 429]
    static let baseDelay: TimeInterval = 1
    static let maximumDelay: TimeInterval = 60

    private let file: FieldServiceOutboxFile
    private let upload: UploadCall
    private let now: @Sendable () -> Date
    private let uploads: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "outbox.uploads"
        queue.maxConcurrentOperationCount = 4
        return queue
    }()

    private let lock = NSLock()
    /// Records that have an upload operation in this process. Process memory on purpose: a
    /// record claimed by a process that died is free again when the app launches.
    private var claimed: Set<UUID> = []
    /// The last upload operation created for each entity, so a later flush queues behind it.
    private var laneTails: [String: Operation] = [:]

    init(directory: URL, upload: @escaping UploadCall, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.file = try FieldServiceOutboxFile(directory: directory)
        self.upload = upload
        self.now = now
    }

    func enqueue(label: String, entity: String?, body: Data) throws {
        let created = now()
        try file.update { records in
            records.append(OutboxRecord(
                id: UUID(), label: label, entity: entity, idempotencyKey: UUID().uuidString,
                body: body, createdAt: created, attempts: 0, notBefore: created, stopReason: nil))
        }
    }

    /// Uploads every due record once; `completion` runs when this flush's uploads have answered.
    func flush(completion: @escaping @Sendable () -> Void) {
        let moment = now()
        var batch: [Operation] = []
        lock.withLock {
            // Read under the claim lock: an upload that just answered has either rewritten its
            // record or still holds its claim, never neither.
            let due = file.records()
                .filter { $0.stopReason == nil && $0.notBefore <= moment }
                .sorted { $0.createdAt < $1.createdAt }
            for record in due where claimed.insert(record.id).inserted {
                let operation = makeUpload(for: record)
                if let entity = record.entity {
                    if let previous = laneTails[entity], !previous.isFinished {
                        operation.addDependency(previous)
                    }
                    laneTails[entity] = operation
                }
                batch.append(operation)
            }
        }
        guard !batch.isEmpty else { return completion() }

        let done = BlockOperation { completion() }
        batch.forEach(done.addDependency)
        uploads.addOperations(batch + [done], waitUntilFinished: false)
    }

    private func makeUpload(for record: OutboxRecord) -> UploadOperation {
        UploadOperation { [self] done in
            upload(record.idempotencyKey, record.body) { [self] result in
                settle(record.id, with: result)
                lock.withLock { _ = claimed.remove(record.id) }
                done()
            }
        }
    }

    private func settle(_ id: UUID, with result: Result<Int, any Error>) {
        let answered = now()
        try? file.update { records in
            guard let index = records.firstIndex(where: { $0.id == id }) else { return }
            switch result {
            case .success(let status) where (200..<300).contains(status):
                records.remove(at: index)
            case .success(409):
                records[index].stopReason = "HTTP 409: the server holds a different body for this key"
            case .success(let status) where Self.retryableClientErrors.contains(status):
                Self.reschedule(&records[index], at: answered)
            case .success(let status) where (400..<500).contains(status):
                records[index].stopReason = "HTTP \(status): rejected, needs review"
            case .success, .failure:
                // 5xx, a redirect we did not ask for, a timeout, a dropped or cancelled
                // connection: the server may or may not have the write. Same key, later.
                Self.reschedule(&records[index], at: answered)
            }
        }
    }

    private static func reschedule(_ record: inout OutboxRecord, at answered: Date) {
        record.attempts += 1
        let exponent = Double(min(record.attempts - 1, 16))
        let delay = min(maximumDelay, baseDelay * pow(2, exponent))
        record.notBefore = answered.addingTimeInterval(delay)
    }
}
