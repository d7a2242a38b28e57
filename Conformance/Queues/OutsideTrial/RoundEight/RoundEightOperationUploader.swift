// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// Background uploader: every pending upload runs as an asynchronous `Operation` on an
/// `OperationQueue` that sends up to three at once. Uploads are persisted as one array in a
/// binary property list.
final class RoundEightOperationUploader: @unchecked Sendable {
    struct Upload: Codable, Sendable, Equatable {
        enum State: String, Codable, Sendable { case pending, failed }
        var id: UUID
        var label: String
        var body: Data
        var createdAt: Date
        /// Assigned the first time the upload goes out.
        var idempotencyKey: String?
        var attempts: Int
        var state: State
        var failureReason: String?
    }

    typealias Send = @Sendable (
        _ idempotencyKey: String, _ body: Data,
        _ completion: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) -> Void

    private let fileURL: URL
    private let send: Send
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var inFlight: Set<UUID> = []
    let operationQueue: OperationQueue

    init(directory: URL, send: @escaping Send, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = Self.fileURL(in: directory)
        self.send = send
        self.now = now
        operationQueue = OperationQueue()
        operationQueue.name = "RoundEightOperationUploader"
        operationQueue.maxConcurrentOperationCount = 3
    }

    static func fileURL(in directory: URL) -> URL { directory.appendingPathComponent("uploads.plist") }

    // MARK: Public API

    @discardableResult
    func enqueue(label: String, body: Data) throws -> UUID {
        try lock.withLock {
            var uploads = try Self.load(from: fileURL)
            let upload = Upload(id: UUID(), label: label, body: body, createdAt: now(),
                                idempotencyKey: nil, attempts: 0, state: .pending, failureReason: nil)
            uploads.append(upload)
            try Self.save(uploads, to: fileURL)
            return upload.id
        }
    }

    /// Starts an operation for every pending upload that is not running; calls `completion`
    /// when all of them have finished.
    func flush(completion: @escaping @Sendable () -> Void) {
        let batch: [Upload] = lock.withLock {
            let pending = ((try? Self.load(from: fileURL)) ?? [])
                .filter { $0.state == .pending && !inFlight.contains($0.id) }
            for upload in pending { inFlight.insert(upload.id) }
            return pending
        }
        guard !batch.isEmpty else { completion(); return }
        let remaining = RoundEightCountdown(batch.count, then: completion)
        let operations = batch.map { upload in
            RoundEightUploadOperation(upload: upload, uploader: self, onFinish: { remaining.tick() })
        }
        operationQueue.addOperations(operations, waitUntilFinished: false)
    }

    func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            flush { done.resume() }
        }
    }

    /// Resolves once every operation queued so far has finished.
    func barrier() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            operationQueue.addBarrierBlock { done.resume() }
        }
    }

    // MARK: Called by the operations

    fileprivate func start(_ upload: Upload, finished: @escaping @Sendable () -> Void) {
        var upload = upload
        if upload.idempotencyKey == nil {
            upload.idempotencyKey = UUID().uuidString
        }
        let key = upload.idempotencyKey!
        let sent = upload
        send(key, upload.body) { [self] result in
            self.record(result, for: sent)
            finished()
        }
    }

    private func record(_ result: Result<Int, any Error>, for sent: Upload) {
        lock.withLock {
            defer { inFlight.remove(sent.id) }
            guard var uploads = try? Self.load(from: fileURL),
                  let index = uploads.firstIndex(where: { $0.id == sent.id }) else { return }
            var upload = uploads[index]
            upload.idempotencyKey = sent.idempotencyKey
            upload.attempts += 1
            switch result {
            case .success(let status) where (200..<300).contains(status):
                uploads.remove(at: index)
                try? Self.save(uploads, to: fileURL)
                return
            case .success(let status) where status == 408 || status == 429:
                break
            case .success(409):
                upload.state = .failed
                upload.failureReason = "Conflict (HTTP 409): this change clashes with an earlier one"
            case .success(let status) where (400..<500).contains(status):
                upload.state = .failed
                upload.failureReason = "Rejected by the server (HTTP \(status))"
            case .success, .failure:
                break   // 3xx, 5xx, no answer: try again on the next flush
            }
            uploads[index] = upload
            try? Self.save(uploads, to: fileURL)
        }
    }

    // MARK: Files

    static func load(from url: URL) throws -> [Upload] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try PropertyListDecoder().decode([Upload].self, from: Data(contentsOf: url))
    }

    private static func save(_ uploads: [Upload], to url: URL) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(uploads).write(to: url, options: .atomic)
    }
}

/// One upload as an asynchronous operation.
final class RoundEightUploadOperation: Operation, @unchecked Sendable {
    private let upload: RoundEightOperationUploader.Upload
    private let uploader: RoundEightOperationUploader
    private let onFinish: @Sendable () -> Void
    private let stateLock = NSLock()
    private var _executing = false
    private var _finished = false

    init(upload: RoundEightOperationUploader.Upload, uploader: RoundEightOperationUploader, onFinish: @escaping @Sendable () -> Void) {
        self.upload = upload
        self.uploader = uploader
        self.onFinish = onFinish
        super.init()
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { stateLock.withLock { _executing } }
    override var isFinished: Bool { stateLock.withLock { _finished } }

    override func start() {
        if isCancelled {
            finish()
            return
        }
        willChangeValue(forKey: "isExecuting")
        stateLock.withLock { _executing = true }
        didChangeValue(forKey: "isExecuting")
        uploader.start(upload) { [self] in self.finish() }
    }

    private func finish() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        stateLock.withLock {
            _executing = false
            _finished = true
        }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
        onFinish()
    }
}

/// Calls `then` once `tick()` has been called `count` times.
final class RoundEightCountdown: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int
    private let then: @Sendable () -> Void

    init(_ count: Int, then: @escaping @Sendable () -> Void) {
        remaining = count
        self.then = then
    }

    func tick() {
        let done: Bool = lock.withLock {
            remaining -= 1
            return remaining == 0
        }
        if done { then() }
    }
}
