import Foundation

/// Uploads expense receipts in the background.
///
/// All state lives on one serial queue (`stateQueue`); the "pending uploads" table is one JSON
/// file, rewritten atomically on every change. An upload is stored with its idempotency token
/// before `enqueue` returns. `flush()` sends every due row at once (marking it `uploading` first,
/// so an overlapping flush skips it) and calls back when every answer is handled. Unknown
/// outcomes (no response, 5xx, 408, 429) put the row back in the queue with a due time
/// (capped exponential backoff, read from the injected `now`); later flushes skip rows that are
/// not due yet. Only a 2xx removes a row; other 4xx (409 included) mark it failed with a reason.
public final class UploadCenter: @unchecked Sendable {
    public static let tokenHeader = "X-Upload-Token"
    public static let tableFileName = "pending-uploads.json"

    private let fileURL: URL
    private let transport: any UploadTransport
    private let now: @Sendable () -> Date
    private let backoff: UploadBackoff
    private let stateQueue = DispatchQueue(label: "com.example.expenses.UploadCenter")

    // Guarded by `stateQueue`.
    private var uploads: [PendingUpload]
    private var events: [String] = []

    public init(
        directory: URL,
        transport: any UploadTransport,
        now: @escaping @Sendable () -> Date = { Date() },
        backoff: UploadBackoff = UploadBackoff()
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent(Self.tableFileName)
        self.transport = transport
        self.now = now
        self.backoff = backoff
        // Load the table before anything can be enqueued, so a new upload is appended to it.
        self.uploads = try Self.readTable(at: fileURL).uploads
    }

    // MARK: Reading the table without a live instance (support tools, tests)

    public static func storedUploads(in directory: URL) throws -> [PendingUpload] {
        try readTable(at: directory.appendingPathComponent(tableFileName)).uploads
    }

    private static func readTable(at url: URL) throws -> PendingUploadsTable {
        guard FileManager.default.fileExists(atPath: url.path) else { return PendingUploadsTable() }
        return try JSONDecoder().decode(PendingUploadsTable.self, from: Data(contentsOf: url))
    }

    // MARK: Public API

    /// Adds an upload to the table; it is on disk, with its token, when this returns.
    @discardableResult
    public func enqueue(payload: Data, endpoint: String = "/v2/receipts", reference: String? = nil) throws -> PendingUpload {
        try stateQueue.sync {
            let upload = PendingUpload(
                id: UUID(), reference: reference, endpoint: endpoint, payload: payload,
                uploadToken: UUID().uuidString, createdAt: now(), state: .queued, attempts: 0)
            var table = uploads
            table.append(upload)
            try write(table)
            uploads = table
            note("queued \(label(upload))")
            return upload
        }
    }

    public var pendingUploads: [PendingUpload] { stateQueue.sync { uploads } }

    public var recentEvents: [String] { stateQueue.sync { events } }

    /// Returns once every block already queued on the state queue has run.
    public func waitUntilIdle() { stateQueue.sync {} }

    /// Sends every due upload; `completion` runs when all of them are answered.
    public func flush(completion: @escaping @Sendable () -> Void) {
        stateQueue.async {
            let current = self.now()
            var table = self.uploads
            var batch: [PendingUpload] = []
            for index in table.indices where table[index].state == .queued
                && (table[index].retryAfter.map { $0 <= current } ?? true) {
                table[index].state = .uploading
                table[index].attempts += 1
                batch.append(table[index])
            }
            guard !batch.isEmpty else {
                completion()
                return
            }
            do {
                try self.write(table)  // the lease is on disk before any request leaves
            } catch {
                self.note("flush skipped: could not save the table (\(error))")
                completion()
                return
            }
            self.uploads = table

            let group = DispatchGroup()
            for upload in batch {
                group.enter()
                self.note("sending \(self.label(upload)) attempt \(upload.attempts)")
                self.transport.send(self.request(for: upload)) { result in
                    self.stateQueue.async {
                        self.handle(result, for: upload.id)
                        group.leave()
                    }
                }
            }
            group.notify(queue: self.stateQueue) { completion() }
        }
    }

    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flush { continuation.resume() }
        }
    }

    /// The user dismissed a failed upload.
    public func discardFailedUpload(_ id: UUID) throws {
        try stateQueue.sync {
            guard let upload = uploads.first(where: { $0.id == id }), upload.state == .failed else { return }
            let table = uploads.filter { $0.id != id }
            try write(table)
            uploads = table
            note("discarded \(label(upload))")
        }
    }

    // MARK: Answers (on stateQueue)

    private func handle(_ result: Result<UploadResponse, any Error>, for id: UUID) {
        guard let index = uploads.firstIndex(where: { $0.id == id }) else { return }
        var table = uploads
        var upload = table[index]

        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            table.remove(at: index)
            note("uploaded \(label(upload)) (HTTP \(response.statusCode))")
            commit(table)
            return

        case .success(let response) where response.statusCode == 409:
            upload.state = .failed
            upload.retryAfter = nil
            upload.failureReason = "HTTP 409: this upload token was already used with different content"

        case .success(let response) where [408, 429].contains(response.statusCode)
            || !(400..<500).contains(response.statusCode):
            scheduleRetry(&upload, reason: "HTTP \(response.statusCode)")

        case .success(let response):
            upload.state = .failed
            upload.retryAfter = nil
            upload.failureReason = "HTTP \(response.statusCode): rejected by the server"

        case .failure(let error):
            scheduleRetry(&upload, reason: "no response: \(error)")
        }

        if let reason = upload.failureReason, upload.state == .failed {
            note("\(label(upload)) failed: \(reason)")
        }
        table[index] = upload
        commit(table)
    }

    private func scheduleRetry(_ upload: inout PendingUpload, reason: String) {
        let delay = backoff.delay(afterAttempt: upload.attempts)
        upload.state = .queued
        upload.lastError = reason
        upload.retryAfter = now().addingTimeInterval(delay)
        note("\(label(upload)) attempt \(upload.attempts): \(reason); retry in \(delay) s")
    }

    private func commit(_ table: [PendingUpload]) {
        do {
            try write(table)
        } catch {
            note("could not save the table (\(error)); keeping the change in memory")
        }
        uploads = table
    }

    // MARK: Helpers (on stateQueue)

    private func write(_ table: [PendingUpload]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(PendingUploadsTable(uploads: table)).write(to: fileURL, options: .atomic)
    }

    private func request(for upload: PendingUpload) -> UploadRequest {
        UploadRequest(
            method: "POST", path: upload.endpoint,
            headers: [Self.tokenHeader: upload.uploadToken, "Content-Type": "application/json"],
            body: upload.payload)
    }

    private func label(_ upload: PendingUpload) -> String {
        "upload \(upload.id.uuidString.prefix(8))" + (upload.reference.map { " (\($0))" } ?? "")
    }

    /// Never includes payloads: receipts carry card data.
    private func note(_ line: String) {
        events.append(line)
        if events.count > 500 { events.removeFirst(events.count - 500) }
    }
}
