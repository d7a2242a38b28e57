import Foundation

// A form-submission queue (feedback forms, support tickets) written with async/await:
// one JSON file per submission in a folder, an async POST closure, and a retry loop
// that sleeps on an injected clock with capped exponential backoff.
//
// Written from the kit's docs alone by an outside trial (its second round), as a buggy queue,
// unchanged but for its names: a "double-tap guard" drops a submit whose body equals one still
// waiting, so two genuine actions with the same content become one.

struct FormSubmission: Codable, Sendable, Equatable {
    enum Status: String, Codable, Sendable { case waiting, stopped }

    var id: String
    var reference: String
    var idempotencyKey: String
    var payload: Data
    var submittedAt: Date
    var tries: Int
    var status: Status
    var stopReason: String?
}

enum FormPostOutcome: Sendable {
    case status(Int)
    case noResponse
}

actor FormSubmissionQueue<C: Clock<Duration>> {
    typealias Post = @Sendable (_ idempotencyKey: String, _ payload: Data) async throws -> Int

    private let folder: URL
    private let post: Post
    private let clock: C
    private let now: @Sendable () -> Date
    private let firstDelay: Duration = .seconds(1)
    private let maxDelay: Duration = .seconds(30)
    private let triesPerSync = 5
    private var syncing = false

    init(folder: URL, post: @escaping Post, clock: C, now: @escaping @Sendable () -> Date) throws {
        self.folder = folder
        self.post = post
        self.clock = clock
        self.now = now
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    static func submissions(in folder: URL) throws -> [FormSubmission] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return []
        }
        let decoder = JSONDecoder()
        return try names.filter { $0.hasSuffix(".json") }.map {
            try decoder.decode(FormSubmission.self, from: Data(contentsOf: folder.appendingPathComponent($0)))
        }.sorted { $0.submittedAt < $1.submittedAt }
    }

    /// Queues a form. A form identical to one still waiting is not queued twice
    /// (users double-tap "Send" when the network is slow).
    func submit(_ payload: Data, reference: String) throws {
        let waiting = try Self.submissions(in: folder).filter { $0.status == .waiting }
        if waiting.contains(where: { $0.payload == payload }) { return }
        let submission = FormSubmission(
            id: UUID().uuidString, reference: reference, idempotencyKey: UUID().uuidString,
            payload: payload, submittedAt: now(), tries: 0, status: .waiting, stopReason: nil)
        try write(submission)
    }

    /// Sends every waiting form in order; retries each a few times with backoff.
    func sync() async throws {
        guard !syncing else { return }
        syncing = true
        defer { syncing = false }

        for candidate in try Self.submissions(in: folder) where candidate.status == .waiting {
            var submission = candidate
            var delay = firstDelay
            for _ in 0..<triesPerSync {
                let outcome: FormPostOutcome
                do {
                    submission.tries += 1
                    try write(submission)
                    outcome = .status(try await post(submission.idempotencyKey, submission.payload))
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    outcome = .noResponse
                }
                switch outcome {
                case .status(let code) where (200..<300).contains(code):
                    try? FileManager.default.removeItem(at: file(for: submission.id))
                case .status(let code) where code == 408 || code == 429 || code >= 500 || code < 400:
                    try await clock.sleep(for: delay)
                    delay = min(delay * 2, maxDelay)
                    continue
                case .status(let code):
                    submission.status = .stopped
                    submission.stopReason = "HTTP \(code)"
                    try write(submission)
                case .noResponse:
                    try await clock.sleep(for: delay)
                    delay = min(delay * 2, maxDelay)
                    continue
                }
                break
            }
        }
    }

    private func file(for id: String) -> URL {
        folder.appendingPathComponent("\(id).json")
    }

    private func write(_ submission: FormSubmission) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(submission).write(to: file(for: submission.id), options: .atomic)
    }
}
