import Foundation

/// Outbox (c): a main-actor sync manager, the kind that lives next to a view model.
/// Every pending upload is one JSON file in a directory; a sync walks them oldest first
/// and retries a failing upload in place with exponential backoff.
@MainActor
public final class PendingUploadsSync {
    public enum UploadError: Error, Sendable {
        case timedOut
        case offline
    }

    public struct Upload: Codable, Sendable {
        public enum State: String, Codable, Sendable { case queued, uploading, failed }
        public var id: UUID
        public var clientTag: String
        public var idempotencyKey: String
        public var payload: Data
        public var state: State
        public var tries: Int
        public var createdAt: Date
        public var failureReason: String?
    }

    public typealias Post = @Sendable (_ key: String, _ payload: Data) async throws -> Int
    public typealias Sleep = @Sendable (_ duration: Duration) async throws -> Void

    private let directory: URL
    private let post: Post
    private let sleep: Sleep
    private let now: () -> Date
    private var syncTask: Task<Void, Never>?
    public private(set) var debugLog: [String] = []

    public init(directory: URL, post: @escaping Post, sleep: @escaping Sleep, now: @escaping () -> Date = Date.init) throws {
        self.directory = directory
        self.post = post
        self.sleep = sleep
        self.now = now
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public nonisolated static func uploads(in directory: URL) -> [Upload] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }
            .compactMap { try? JSONDecoder().decode(Upload.self, from: Data(contentsOf: $0)) }
            .sorted { $0.createdAt < $1.createdAt }
    }

    public func enqueue(tag: String, payload: Data) throws {
        let upload = Upload(
            id: UUID(), clientTag: tag, idempotencyKey: UUID().uuidString, payload: payload, state: .queued,
            tries: 0, createdAt: now(), failureReason: nil)
        try write(upload)
        debugLog.append("enqueued \(tag) key=\(upload.idempotencyKey.prefix(8))")
    }

    /// Runs one sync; a sync already running is joined instead of started twice.
    public func sync() async {
        if let syncTask { return await syncTask.value }
        let task = Task { await self.uploadAll() }
        syncTask = task
        await task.value
    }

    private func uploadAll() async {
        defer { syncTask = nil }
        var done: Set<UUID> = []
        while let next = Self.uploads(in: directory).first(where: { $0.state != .failed && !done.contains($0.id) }) {
            done.insert(next.id)
            var upload = next
            var backoff = Duration.seconds(1)
            while true {
                upload.state = .uploading
                upload.tries += 1
                try? write(upload)
                debugLog.append("uploading \(upload.clientTag) try \(upload.tries)")
                do {
                    let status = try await post(upload.idempotencyKey, upload.payload)
                    if (200..<300).contains(status) {
                        try? FileManager.default.removeItem(at: file(for: upload.id))
                        debugLog.append("uploaded \(upload.clientTag)")
                        break
                    }
                    if status >= 500 || status == 408 || status == 429 {
                        debugLog.append("\(upload.clientTag): HTTP \(status), retrying")
                    } else {
                        upload.state = .failed
                        upload.failureReason = status == 409 ? "Conflict (409)" : "Rejected (HTTP \(status))"
                        try? write(upload)
                        break
                    }
                } catch UploadError.timedOut {
                    // The server is too slow for this upload; show it in the "failed uploads" list.
                    upload.state = .failed
                    upload.failureReason = "Request timed out"
                    try? write(upload)
                    debugLog.append("\(upload.clientTag): timed out, marked failed")
                    break
                } catch {
                    debugLog.append("\(upload.clientTag): \(error), retrying")
                }
                upload.state = .queued
                try? write(upload)
                do { try await sleep(backoff) } catch { return }
                backoff = min(backoff * 2, .seconds(30))
            }
        }
    }

    private func file(for id: UUID) -> URL { directory.appendingPathComponent("\(id.uuidString).json") }

    private func write(_ upload: Upload) throws {
        try JSONEncoder().encode(upload).write(to: file(for: upload.id), options: .atomic)
    }
}
