import Foundation

/// Redeems gift cards taken while the store's connection was down. Up to three redemptions are
/// in flight at once (the payments API rate-limits a terminal beyond that); each is retried with
/// its own idempotency key until the API gives a definite answer.
actor RedemptionCoordinator {
    static let maxConcurrentUploads = 3
    static let retryableClientErrors: Set<Int> = [408, 429]
    static let baseDelay: TimeInterval = 1
    static let maximumDelay: TimeInterval = 120
    static let stuckAfter: TimeInterval = 24 * 60 * 60

    typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> (status: Int, body: Data)

    private enum Outcome: Sendable {
        case answered(status: Int, body: Data)
        case failed(String)
    }

    private let store: RedemptionStore
    private let post: Post
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private var redemptions: [Redemption]
    private var uploading: Set<UUID> = []
    private var reportedStuck: Set<UUID> = []
    private(set) var log: [String] = []

    init(directory: URL, post: @escaping Post, now: @escaping @Sendable () -> Date = Date.init,
         jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1) }) throws {
        store = try RedemptionStore(directory: directory)
        redemptions = store.load()
        self.post = post
        self.now = now
        self.jitter = jitter
    }

    func redeem(_ request: RedeemRequest, reference: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try enqueue(reference: reference, body: encoder.encode(request))
    }

    func enqueue(reference: String, body: Data) throws {
        let created = now()
        var updated = redemptions
        updated.append(Redemption(
            id: UUID(), reference: reference, idempotencyKey: UUID().uuidString, body: body,
            createdAt: created, attempts: 0, nextAttempt: created, stoppedReason: nil))
        try store.save(updated)
        redemptions = updated
    }

    /// One sync: every due redemption, three at a time. Returns when all of them were answered.
    func syncAll() async {
        let moment = now()
        let batch = redemptions
            .filter { $0.stoppedReason == nil && $0.nextAttempt <= moment && !uploading.contains($0.id) }
            .sorted { $0.createdAt < $1.createdAt }
        uploading.formUnion(batch.map(\.id))
        reportStuck(at: moment)

        let post = self.post
        let started = await withTaskGroup(of: (UUID, Outcome).self) { group in
            var next = 0
            func startNext() {
                let redemption = batch[next]
                next += 1
                group.addTask { (redemption.id, await Self.upload(redemption, with: post)) }
            }
            while next < min(Self.maxConcurrentUploads, batch.count) { startNext() }
            while let (id, outcome) = await group.next() {
                settle(id, outcome)
                if next < batch.count && !Task.isCancelled { startNext() }
            }
            return next
        }
        // Answered redemptions released their claim in `settle`; only those never started
        // (the sync was cancelled) are still held by this pass.
        for redemption in batch[started...] { uploading.remove(redemption.id) }
    }

    private static func upload(_ redemption: Redemption, with post: Post) async -> Outcome {
        do {
            let answer = try await post(redemption.idempotencyKey, redemption.body)
            return .answered(status: answer.status, body: answer.body)
        } catch {
            return .failed(String(describing: type(of: error)))
        }
    }

    private func settle(_ id: UUID, _ outcome: Outcome) {
        uploading.remove(id)
        guard let index = redemptions.firstIndex(where: { $0.id == id }) else { return }
        var updated = redemptions
        let reference = updated[index].reference
        switch outcome {
        case .answered(let status, _) where (200..<300).contains(status):
            updated.remove(at: index)
            log.append("\(reference): redeemed (HTTP \(status))")
        case .answered(409, _):
            stop(&updated[index], reason: "HTTP 409 conflict: key reused with another body")
        case .answered(let status, _) where Self.retryableClientErrors.contains(status):
            retryLater(&updated[index], because: "HTTP \(status)")
        case .answered(let status, let body) where (400..<500).contains(status):
            let code = LogRedaction.errorCode(in: body).map { " \($0)" } ?? ""
            stop(&updated[index], reason: "HTTP \(status)\(code)")
        case .answered(let status, _):
            retryLater(&updated[index], because: "HTTP \(status)")
        case .failed(let error):
            retryLater(&updated[index], because: error)
        }
        do {
            try store.save(updated)
            redemptions = updated
        } catch {
            log.append("\(reference): could not save the outcome (\(type(of: error)))")
        }
    }

    private func stop(_ redemption: inout Redemption, reason: String) {
        redemption.stoppedReason = reason
        log.append("\(redemption.reference): stopped, \(reason); request \(LogRedaction.redacted(redemption.body))")
    }

    private func retryLater(_ redemption: inout Redemption, because reason: String) {
        redemption.attempts += 1
        let ceiling = min(Self.maximumDelay, Self.baseDelay * pow(2, Double(min(redemption.attempts - 1, 30))))
        let delay = ceiling * jitter()
        redemption.nextAttempt = now().addingTimeInterval(delay)
        log.append("\(redemption.reference): attempt \(redemption.attempts) \(reason), retry in \(Int(delay.rounded(.up))) s")
    }

    private func reportStuck(at moment: Date) {
        for redemption in redemptions where redemption.stoppedReason == nil && !reportedStuck.contains(redemption.id)
            && moment.timeIntervalSince(redemption.createdAt) > Self.stuckAfter {
            reportedStuck.insert(redemption.id)
            log.append("\(redemption.reference): pending for over a day after \(redemption.attempts) attempts; "
                + "request \(LogRedaction.redacted(redemption.body))")
        }
    }
}
