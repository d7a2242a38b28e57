import Foundation
import Observation

/// A shift-swap or time-off request the user made, waiting for the server.
struct OutboxEntry: Codable, Sendable, Identifiable, Equatable {
    enum Status: String, Codable, Sendable {
        case waiting   // will be sent by the next flush that finds it due
        case held      // the server refused it; the Requests tab shows a banner
    }

    struct Failure: Codable, Sendable, Equatable {
        var httpStatus: Int?
        var message: String
    }

    let id: UUID
    let clientTag: String          // the screen's own ID for the request
    let idempotencyKey: String
    let body: Data                 // encoded once, when the user tapped Send
    let createdAt: Date
    var status: Status
    var attempts: Int
    var retryAt: Date?
    var failure: Failure?
}

private struct OutboxFile: Codable {
    var entries: [OutboxEntry] = []
}

/// The Requests tab's outbox. Lives on the main actor next to the views that
/// observe it; the whole outbox is one small JSON file (a handful of entries
/// at most), rewritten atomically on every change.
@MainActor
@Observable
final class ShiftRequestOutbox {
    typealias Send = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    /// Retry schedule after an unknown outcome; the last step repeats.
    static let retrySchedule: [TimeInterval] = [5, 15, 30, 60, 120, 300]

    private(set) var entries: [OutboxEntry]
    private(set) var activity: [String] = []

    @ObservationIgnored private var sending: Set<UUID> = []
    @ObservationIgnored private let fileURL: URL
    @ObservationIgnored private let send: Send
    @ObservationIgnored private let now: @Sendable () -> Date

    init(directory: URL, send: @escaping Send, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent("outbox.json")
        self.send = send
        self.now = now
        self.entries = try Self.storedEntries(at: fileURL)

        // 401 and 403 mean "this session may not do that". Every launch starts
        // with a fresh token exchange (AuthSession.restore() runs before the
        // outbox is built), and a manager may have granted the permission in
        // the meantime, so an entry held for auth gets one more try with the
        // new session instead of waiting for the user to find the banner.
        var revived = false
        for index in entries.indices where entries[index].status == .held {
            if let code = entries[index].failure?.httpStatus, code == 401 || code == 403 {
                entries[index].status = .waiting
                entries[index].retryAt = nil
                revived = true
            }
        }
        if revived { try persist() }
    }

    nonisolated static func storedEntries(at fileURL: URL) throws -> [OutboxEntry] {
        guard let data = try? Data(contentsOf: fileURL) else { return [] }
        return try JSONDecoder().decode(OutboxFile.self, from: data).entries
    }

    nonisolated static func fileURL(in directory: URL) -> URL {
        directory.appendingPathComponent("outbox.json")
    }

    /// Called when the user taps Send. The entry is on disk before we return.
    func add(clientTag: String, body: Data) throws {
        entries.append(OutboxEntry(
            id: UUID(), clientTag: clientTag, idempotencyKey: UUID().uuidString, body: body,
            createdAt: now(), status: .waiting, attempts: 0, retryAt: nil, failure: nil))
        try persist()
    }

    /// Sends every entry that is due, one at a time, in the order they were made.
    func flush() async {
        let startedAt = now()
        let due = entries.filter {
            $0.status == .waiting && !sending.contains($0.id) && ($0.retryAt ?? .distantPast) <= startedAt
        }
        for entry in due { sending.insert(entry.id) }
        for entry in due {
            await deliver(entry.id)
            sending.remove(entry.id)
        }
    }

    private func deliver(_ id: UUID) async {
        guard let start = entries.firstIndex(where: { $0.id == id }) else { return }
        entries[start].attempts += 1
        try? persist()
        let key = entries[start].idempotencyKey
        let body = entries[start].body
        let outcome: Result<Int, any Error>
        do { outcome = .success(try await send(key, body)) } catch { outcome = .failure(error) }

        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        let tag = entries[index].clientTag
        switch outcome {
        case .success(let code) where (200..<300).contains(code):
            entries.remove(at: index)
            activity.append("\(tag): delivered (HTTP \(code))")
        case .success(let code) where code == 408 || code == 429 || code >= 500:
            scheduleRetry(at: index, reason: "HTTP \(code)")
        case .success(let code):
            let message = code == 409
                ? "HTTP 409: this request was already sent with different details"
                : "HTTP \(code): the server did not accept this request"
            entries[index].status = .held
            entries[index].failure = .init(httpStatus: code, message: message)
            activity.append("\(tag): held, \(message)")
        case .failure(let error):
            scheduleRetry(at: index, reason: "no response (\(type(of: error)))")
        }
        try? persist()
    }

    private func scheduleRetry(at index: Int, reason: String) {
        let step = min(entries[index].attempts, Self.retrySchedule.count) - 1
        let delay = Self.retrySchedule[max(step, 0)]
        entries[index].retryAt = now().addingTimeInterval(delay)
        entries[index].failure = .init(httpStatus: nil, message: reason)
        activity.append("\(entries[index].clientTag): \(reason), next try in \(Int(delay)) s")
    }

    private func persist() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(OutboxFile(entries: entries))
        try data.write(to: fileURL, options: .atomic)
    }
}
