import Foundation

/// The charity app's existing API client (a completion-handler `URLSession` wrapper).
protocol PledgeAPIClient: Sendable {
    /// POSTs one pledge. Calls back once, on a background thread, with the HTTP status, or with
    /// an error for a transport failure.
    func submitPledge(
        idempotencyKey: String, json: Data,
        completion: @escaping @Sendable (Result<Int, any Error>) -> Void)
}

/// Offline pledge queue of a charity app: a donor pledges at an event with poor reception, the
/// pledge is saved with its idempotency key and sent when the network allows.
///
/// A `@MainActor` class (the screens observe `pledges` and `log`) over one JSON file holding
/// every pledge, written atomically on each change; the old completion-handler client is
/// bridged into the flush with a continuation. A pledge being sent is held in `sending`
/// (process memory). Retries keep a due time in the pledge. The support screen shows `log`,
/// whose lines carry the pledge payload with the payment fields masked.
@MainActor
final class DonationPledgeQueue {
    struct Pledge: Codable, Sendable, Equatable {
        enum Status: String, Codable, Sendable {
            case waiting
            case needsReview
        }

        var id: UUID
        var label: String
        var idempotencyKey: String
        var json: Data
        var createdAt: Date
        var status: Status
        var attempts: Int
        var notBefore: Date?
        var reviewReason: String?
    }

    struct RetryPolicy: Sendable {
        var base: TimeInterval = 1
        var cap: TimeInterval = 20
        var retryableStatuses: Set<Int> = [408, 429]

        func delay(afterAttempt attempt: Int) -> TimeInterval {
            min(cap, base * Double(1 << min(max(attempt - 1, 0), 16)))
        }
    }

    private(set) var pledges: [Pledge]
    /// The support screen's log (newest last, at most `maxLogLines`).
    private(set) var log: [String] = []
    private var sending: Set<UUID> = []

    private let fileURL: URL
    private let client: any PledgeAPIClient
    private let now: @Sendable () -> Date
    private let policy: RetryPolicy
    private let maxLogLines = 500

    init(directory: URL, client: any PledgeAPIClient, now: @escaping @Sendable () -> Date,
         policy: RetryPolicy = RetryPolicy()) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = Self.fileURL(in: directory)
        self.client = client
        self.now = now
        self.policy = policy
        self.pledges = try Self.storedPledges(in: directory)
    }

    /// Saves the pledge (on disk, with its key) before returning.
    func add(label: String, json: Data) throws {
        pledges.append(Pledge(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString, json: json,
            createdAt: now(), status: .waiting, attempts: 0))
        try persist()
    }

    /// Sends every due pledge, one at a time, until none is due.
    func flush() async {
        while !Task.isCancelled, let index = nextDueIndex() {
            let id = pledges[index].id
            sending.insert(id)
            pledges[index].attempts += 1
            try? persist()
            let pledge = pledges[index]

            let result = await post(pledge)
            sending.remove(id)
            if case .failure(let error) = result, error is CancellationError { return }
            guard let current = pledges.firstIndex(where: { $0.id == id }) else { continue }
            handle(result, at: current)
            try? persist()
        }
    }

    private func nextDueIndex() -> Int? {
        let now = self.now()
        return pledges.indices
            .filter {
                pledges[$0].status == .waiting && !sending.contains(pledges[$0].id)
                    && (pledges[$0].notBefore ?? .distantPast) <= now
            }
            .min { pledges[$0].createdAt < pledges[$1].createdAt }
    }

    private func post(_ pledge: Pledge) async -> Result<Int, any Error> {
        await withCheckedContinuation { continuation in
            client.submitPledge(idempotencyKey: pledge.idempotencyKey, json: pledge.json) { result in
                continuation.resume(returning: result)
            }
        }
    }

    private func handle(_ result: Result<Int, any Error>, at index: Int) {
        let pledge = pledges[index]
        switch result {
        case .success(let code) where (200..<300).contains(code):
            pledges.remove(at: index)
            note("pledge \(pledge.label) accepted (HTTP \(code))")
        case .success(409):
            stop(index, reason: "HTTP 409: this key was already used with different pledge details")
        case .success(let code) where policy.retryableStatuses.contains(code) || (500..<600).contains(code):
            retryLater(index, because: "HTTP \(code)")
        case .success(let code):
            stop(index, reason: "HTTP \(code): not sent again automatically")
        case .failure(let error):
            // Lost connection or timeout: the server may or may not have the pledge.
            retryLater(index, because: String(describing: error))
        }
    }

    private func retryLater(_ index: Int, because why: String) {
        let delay = policy.delay(afterAttempt: pledges[index].attempts)
        pledges[index].notBefore = now().addingTimeInterval(delay)
        note("pledge \(pledges[index].label) attempt \(pledges[index].attempts) failed (\(why)); "
            + "retrying in \(Int(delay)) s; payload \(PaymentRedactor.redact(pledges[index].json))")
    }

    private func stop(_ index: Int, reason: String) {
        pledges[index].status = .needsReview
        pledges[index].reviewReason = reason
        pledges[index].notBefore = nil
        note("pledge \(pledges[index].label) needs review: \(reason); "
            + "payload \(PaymentRedactor.redact(pledges[index].json))")
    }

    private func note(_ line: String) {
        log.append("\(now().ISO8601Format()) \(line)")
        if log.count > maxLogLines { log.removeFirst(log.count - maxLogLines) }
    }

    // MARK: Storage

    private func persist() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(pledges).write(to: fileURL, options: .atomic)
    }

    nonisolated static func fileURL(in directory: URL) -> URL {
        directory.appendingPathComponent("pledges.json")
    }

    /// The pledges on disk (empty before the first one is saved).
    nonisolated static func storedPledges(in directory: URL) throws -> [Pledge] {
        let url = fileURL(in: directory)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([Pledge].self, from: Data(contentsOf: url))
    }
}

/// Masks payment fields in payloads before they reach a log line or a support ticket.
enum PaymentRedactor {
    static let sensitiveKeys: Set<String> = ["card", "cardNumber", "cvv", "cvc", "iban", "password"]

    /// The payload as JSON text with every sensitive field masked, at any depth.
    static func redact(_ json: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(
                withJSONObject: masking(object), options: [.sortedKeys, .fragmentsAllowed])
        else { return "<\(json.count) bytes>" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func masking(_ value: Any, sensitive: Bool = false) -> Any {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.reduce(into: [String: Any]()) { result, entry in
                result[entry.key] = masking(entry.value, sensitive: sensitive || sensitiveKeys.contains(entry.key))
            }
        case let array as [Any]:
            return array.map { masking($0, sensitive: sensitive) }
        case let string as String where sensitive:
            return mask(string)
        default:
            return sensitive ? "•••" : value
        }
    }

    /// "4242424242424242" → "••••••••••••4242", as the payment sheet shows a card.
    static func mask(_ value: String) -> String {
        let visible = min(4, value.count)  // BUG: a value of four characters or fewer (a CVV, a PIN) is shown whole
        return String(repeating: "•", count: value.count - visible) + value.suffix(visible)
    }
}
