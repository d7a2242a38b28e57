import Foundation
import Observation

/// One saved draft change waiting to be uploaded.
struct DraftChange: Codable, Sendable, Identifiable {
    enum Phase: String, Codable, Sendable {
        case waiting
        case needsReview
    }

    let id: UUID
    /// The caller's ID for the change (the kit's operation ID in tests).
    let sourceID: String
    /// `var` because the model rotates it after a lost response (the bug, see below).
    var idempotencyKey: String
    let payload: Data
    let createdAt: Date
    var phase: Phase
    var attempts: Int
    var retryAt: Date
    var reviewNote: String?
}

/// The JSON file the outbox lives in.
struct DraftOutboxFile: Sendable {
    let directory: URL

    var url: URL { directory.appendingPathComponent("draft-outbox.json") }

    func load() throws -> [DraftChange] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([DraftChange].self, from: Data(contentsOf: url))
    }

    func save(_ changes: [DraftChange]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONEncoder().encode(changes).write(to: url, options: .atomic)
    }
}

struct DraftUploadResult: Sendable {
    let status: Int
    let body: Data
}

typealias DraftUpload = @Sendable (_ idempotencyKey: String, _ payload: Data) async throws -> DraftUploadResult

/// The drafts screen's sync model: SwiftUI observes `changes`, `isSyncing` and `activity`.
///
/// KNOWN BUG (kept on purpose): when an upload throws (dropped connection, timeout, cancelled
/// request), the model assumes the server "never saw it" and gives the change a brand-new
/// idempotency key before retrying. The server may have committed the first request, so the
/// retry can create a second record.
@MainActor
@Observable
final class NewKeyOnRetryOutbox {
    private(set) var changes: [DraftChange]
    private(set) var isSyncing = false
    private(set) var activity: [String] = []

    var waitingCount: Int { changes.filter { $0.phase == .waiting }.count }
    var changesNeedingReview: [DraftChange] { changes.filter { $0.phase == .needsReview } }
    var statusLine: String {
        if isSyncing { return "Syncing…" }
        if !changesNeedingReview.isEmpty { return "\(changesNeedingReview.count) change(s) need review" }
        return waitingCount == 0 ? "All changes saved" : "\(waitingCount) waiting to upload"
    }

    private let file: DraftOutboxFile
    private let uploader: DraftUpload
    private let now: @Sendable () -> Date
    private let retryBase: TimeInterval = 0.5
    private let retryCap: TimeInterval = 20
    @ObservationIgnored private var syncTask: Task<Void, Never>?

    init(file: DraftOutboxFile, upload: @escaping DraftUpload, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.file = file
        self.uploader = upload
        self.now = now
        self.changes = try file.load()
    }

    // MARK: - Intents

    /// Saves the change with its key; returns once it is in the file. Does not upload.
    func save(sourceID: String, payload: Data) throws {
        let stamp = now()
        let change = DraftChange(
            id: UUID(), sourceID: sourceID, idempotencyKey: UUID().uuidString, payload: payload,
            createdAt: stamp, phase: .waiting, attempts: 0, retryAt: stamp, reviewNote: nil)
        var next = changes
        next.append(change)
        try file.save(next)
        changes = next
        log("Saved \(sourceID)")
    }

    /// Pull-to-refresh, scene activation and the background refresh all call this. A call while
    /// a sync runs waits for that sync.
    func syncNow() async {
        if let running = syncTask {
            await running.value
            return
        }
        let task = Task { await self.uploadDueChanges() }
        syncTask = task
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    // MARK: - Upload loop

    private func uploadDueChanges() async {
        isSyncing = true
        defer {
            isSyncing = false
            syncTask = nil
        }
        while !Task.isCancelled, let change = nextDueChange() {
            await push(change)
        }
    }

    private func nextDueChange() -> DraftChange? {
        let moment = now()
        return changes
            .filter { $0.phase == .waiting && $0.retryAt <= moment }
            .min { ($0.retryAt, $0.createdAt) < ($1.retryAt, $1.createdAt) }
    }

    private func push(_ change: DraftChange) async {
        modify(change.id) { $0.attempts += 1 }
        let attempt = (changes.first { $0.id == change.id }?.attempts) ?? change.attempts + 1

        let result: Result<DraftUploadResult, any Error>
        do {
            result = .success(try await uploader(change.idempotencyKey, change.payload))
        } catch {
            result = .failure(error)
        }

        let retryAt = now().addingTimeInterval(retryDelay(afterAttempt: attempt))
        switch result {
        case .success(let response) where (200..<300).contains(response.status):
            remove(change.id)
            log("Uploaded \(change.sourceID)")
        case .success(let response) where (400..<500).contains(response.status)
            && response.status != 408 && response.status != 429:
            let note = response.status == 409
                ? "HTTP 409: the server has this change with different content"
                : "HTTP \(response.status): the server rejected this change"
            modify(change.id) {
                $0.phase = .needsReview
                $0.reviewNote = note
            }
            log("\(change.sourceID) needs review (\(note))")
        case .success(let response):
            modify(change.id) { $0.retryAt = retryAt }
            log("\(change.sourceID): HTTP \(response.status), retrying later")
        case .failure:
            modify(change.id) {
                // BUG: "the request never arrived, start clean". It may well have arrived.
                $0.idempotencyKey = UUID().uuidString
                $0.retryAt = retryAt
            }
            log("\(change.sourceID): no response, retrying later")
        }
    }

    private func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        return min(retryCap, retryBase * pow(2, exponent))
    }

    // MARK: - State + file

    private func modify(_ id: UUID, _ edit: (inout DraftChange) -> Void) {
        guard let index = changes.firstIndex(where: { $0.id == id }) else { return }
        var next = changes
        edit(&next[index])
        commit(next)
    }

    private func remove(_ id: UUID) {
        commit(changes.filter { $0.id != id })
    }

    private func commit(_ next: [DraftChange]) {
        do {
            try file.save(next)
        } catch {
            log("Could not save the outbox")
        }
        changes = next
    }

    private func log(_ line: String) {
        activity.append(line)
        if activity.count > 200 { activity.removeFirst(activity.count - 200) }
    }
}
