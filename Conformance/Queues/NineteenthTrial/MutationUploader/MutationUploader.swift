import Foundation

/// One saved change, as stored in `Outbox/<id>.json`.
struct StoredMutation: Codable, Sendable {
    enum Phase: String, Codable, Sendable { case pending, stopped }

    let id: UUID
    let reference: String       // the feature's own ID for the change
    let collection: String      // "visits", "visits/<id>" for an edit
    let idempotencyKey: String
    let record: Data            // the record's JSON, exactly as the feature encoded it
    let createdAt: Date
    var phase: Phase
    var attempts: Int
    var nextAttempt: Date?
    var stopReason: String?
}

/// Uploads saved changes to our sync service's `POST /v1/mutations` endpoint.
///
/// The endpoint takes a list of mutations (`{"mutations":[{…}]}`), applied in
/// one transaction under one `Idempotency-Key`. We send one mutation per
/// request for now, so a refused change never takes its neighbours with it;
/// the envelope stays the documented one so that batching later is a
/// client-only change.
///
/// Written against our callback-based `SyncClient` (shared with the
/// Objective-C share extension); state is guarded by a lock.
final class MutationUploader: @unchecked Sendable {
    typealias Post = @Sendable (_ idempotencyKey: String, _ body: Data,
                                _ done: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void

    static let firstDelay: TimeInterval = 1
    static let longestDelay: TimeInterval = 64

    private let folder: URL
    private let post: Post
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var uploading: Set<UUID> = []
    private var lines: [String] = []

    init(folder: URL, post: @escaping Post, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        self.post = post
        self.now = now
    }

    var log: [String] { lock.withLock { lines } }

    static func stored(in folder: URL) -> [StoredMutation] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            return try? JSONDecoder().decode(StoredMutation.self, from: data)
        }.sorted { $0.createdAt < $1.createdAt }
    }

    /// Saves the change; it is on disk when this returns.
    func save(reference: String, collection: String, record: Data) throws {
        let mutation = StoredMutation(
            id: UUID(), reference: reference, collection: collection,
            idempotencyKey: UUID().uuidString, record: record, createdAt: now(),
            phase: .pending, attempts: 0, nextAttempt: nil, stopReason: nil)
        try write(mutation)
    }

    /// Uploads everything due, one request at a time; calls `completion` when done.
    func upload(completion: @escaping @Sendable () -> Void) {
        let startedAt = now()
        let batch: [StoredMutation] = lock.withLock {
            let due = Self.stored(in: folder).filter {
                $0.phase == .pending && !uploading.contains($0.id) && ($0.nextAttempt ?? .distantPast) <= startedAt
            }
            uploading.formUnion(due.map(\.id))
            return due
        }
        uploadNext(batch[...], completion: completion)
    }

    private func uploadNext(_ rest: ArraySlice<StoredMutation>, completion: @escaping @Sendable () -> Void) {
        guard var mutation = rest.first else { return completion() }
        mutation.attempts += 1
        try? write(mutation)
        let attempt = mutation
        post(attempt.idempotencyKey, Self.requestBody(for: attempt)) { [self] result in
            finish(attempt, result: result)
            lock.withLock { _ = uploading.remove(attempt.id) }
            uploadNext(rest.dropFirst(), completion: completion)
        }
    }

    /// `{"mutations":[{"collection":…,"record":…}]}`, assembled around the stored
    /// record bytes so that every attempt carries the same bytes.
    static func requestBody(for mutation: StoredMutation) -> Data {
        let collection = (try? JSONEncoder().encode(mutation.collection)) ?? Data("\"\"".utf8)
        var body = Data(#"{"mutations":[{"collection":"#.utf8)
        body.append(collection)
        body.append(Data(#","record":"#.utf8))
        body.append(mutation.record)
        body.append(Data("}]}".utf8))
        return body
    }

    private func finish(_ sent: StoredMutation, result: Result<Int, any Error>) {
        var mutation = sent
        switch result {
        case .success(let status) where (200..<300).contains(status):
            try? FileManager.default.removeItem(at: url(for: mutation.id))
            note("\(mutation.reference): uploaded")
            return
        case .success(let status) where status == 408 || status == 429 || status >= 500:
            backOff(&mutation, reason: "HTTP \(status)")
        case .success(let status):
            mutation.phase = .stopped
            mutation.stopReason = status == 409
                ? "HTTP 409: the server holds this key with other content"
                : "HTTP \(status): refused"
            note("\(mutation.reference): stopped, \(mutation.stopReason ?? "")")
        case .failure(let error):
            backOff(&mutation, reason: "no response: \(type(of: error))")
        }
        try? write(mutation)
    }

    private func backOff(_ mutation: inout StoredMutation, reason: String) {
        let exponent = Double(min(mutation.attempts - 1, 10))
        let delay = min(Self.longestDelay, Self.firstDelay * pow(2, exponent))
        mutation.nextAttempt = now().addingTimeInterval(delay)
        note("\(mutation.reference): \(reason); next attempt in \(Int(delay)) s")
    }

    private func note(_ line: String) { lock.withLock { lines.append(line) } }

    private func url(for id: UUID) -> URL { folder.appendingPathComponent("\(id.uuidString).json") }

    private func write(_ mutation: StoredMutation) throws {
        try JSONEncoder().encode(mutation).write(to: url(for: mutation.id), options: .atomic)
    }
}
