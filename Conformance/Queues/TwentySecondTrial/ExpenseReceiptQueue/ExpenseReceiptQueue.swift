import Foundation

/// What the receipts endpoint needs for one upload.
struct ReceiptUploadRequest: Sendable {
    let idempotencyKey: String
    let receiptJSON: Data
}

/// Offline queue for expense receipts captured in the field: one JSON file per receipt in the
/// app's Application Support folder, uploaded oldest first, one at a time, when a sync runs.
/// A receipt that failed with an unknown outcome waits for its own `retryNotBefore`.
actor ExpenseReceiptQueue {
    struct StoredReceipt: Codable, Sendable {
        enum Status: String, Codable, Sendable {
            case queued
            case needsReview
        }

        var receiptID: String
        var expenseRef: String
        var idempotencyKey: String
        var receiptJSON: Data
        /// ISO 8601 in UTC, written once when the receipt is captured.
        var capturedAt: String
        var uploadAttempts: Int
        var retryNotBefore: Date?
        var status: Status
        var reviewNote: String?
    }

    enum UploadOutcome: Equatable {
        case uploaded
        case conflict
        case rejected(status: Int)
        case tryAgain
    }

    /// Client errors after which the same request may simply be sent again.
    static let resendableClientErrors: Set<Int> = [408, 425]
    static let maximumBackoff: TimeInterval = 120
    private static let fileSuffix = ".receipt.json"

    private let folder: URL
    private let send: @Sendable (ReceiptUploadRequest) async throws -> Int
    private let now: @Sendable () -> Date
    private let timestampFormatter: ISO8601DateFormatter
    /// Receipts with an upload on the wire from this process.
    private var uploading: Set<String> = []

    init(
        folder: URL,
        send: @escaping @Sendable (ReceiptUploadRequest) async throws -> Int,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        self.folder = folder
        self.send = send
        self.now = now
        self.timestampFormatter = formatter
    }

    /// Saves the receipt to disk; it is uploaded by a later sync.
    func add(expenseRef: String, receiptJSON: Data) throws {
        let receipt = StoredReceipt(
            receiptID: UUID().uuidString, expenseRef: expenseRef, idempotencyKey: UUID().uuidString,
            receiptJSON: receiptJSON, capturedAt: timestampFormatter.string(from: now()),
            uploadAttempts: 0, retryNotBefore: nil, status: .queued, reviewNote: nil)
        try Self.save(receipt, in: folder)
    }

    /// One sync: every queued receipt that is due, oldest first.
    func uploadDueReceipts() async {
        let moment = now()
        let due = Self.storedReceipts(in: folder).filter {
            $0.status == .queued && ($0.retryNotBefore ?? .distantPast) <= moment
        }
        for candidate in due {
            if Task.isCancelled { return }
            guard !uploading.contains(candidate.receiptID),
                  var receipt = Self.load(candidate.receiptID, in: folder),
                  receipt.status == .queued,
                  (receipt.retryNotBefore ?? .distantPast) <= now()
            else { continue }

            uploading.insert(receipt.receiptID)
            receipt.uploadAttempts += 1
            try? Self.save(receipt, in: folder)
            let outcome: UploadOutcome
            do {
                let status = try await send(
                    ReceiptUploadRequest(idempotencyKey: receipt.idempotencyKey, receiptJSON: receipt.receiptJSON))
                outcome = Self.outcome(forStatus: status)
            } catch {
                outcome = .tryAgain  // offline, timed out, cancelled: it may have landed
            }
            uploading.remove(receipt.receiptID)
            settle(receipt, with: outcome)
        }
    }

    static func outcome(forStatus status: Int) -> UploadOutcome {
        switch status {
        case 200...299:
            return .uploaded
        case 409:
            return .conflict
        case 400...499:
            return resendableClientErrors.contains(status) ? .tryAgain : .rejected(status: status)
        default:  // 3xx, 5xx: the receipt may or may not have been stored
            return .tryAgain
        }
    }

    /// Equal jitter over a doubling ceiling: 1–2 s, 2–4 s, … up to 60–120 s.
    static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let ceiling = min(maximumBackoff, 2 * pow(2, Double(min(max(attempt - 1, 0), 12))))
        return ceiling / 2 + Double.random(in: 0...(ceiling / 2))
    }

    private func settle(_ receipt: StoredReceipt, with outcome: UploadOutcome) {
        var receipt = receipt
        switch outcome {
        case .uploaded:
            try? FileManager.default.removeItem(at: Self.fileURL(for: receipt.receiptID, in: folder))
            return
        case .conflict:
            receipt.status = .needsReview
            receipt.reviewNote = "HTTP 409: this receipt was already sent with different data"
        case .rejected(let status):
            receipt.status = .needsReview
            receipt.reviewNote = "HTTP \(status): receipt rejected by the server"
        case .tryAgain:
            let delay = Self.backoff(afterAttempt: receipt.uploadAttempts)
            receipt.retryNotBefore = now().addingTimeInterval(delay)
        }
        try? Self.save(receipt, in: folder)
    }

    // MARK: Files

    static func fileURL(for receiptID: String, in folder: URL) -> URL {
        folder.appendingPathComponent(receiptID + fileSuffix)
    }

    static func save(_ receipt: StoredReceipt, in folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(receipt).write(to: fileURL(for: receipt.receiptID, in: folder), options: .atomic)
    }

    static func load(_ receiptID: String, in folder: URL) -> StoredReceipt? {
        guard let data = try? Data(contentsOf: fileURL(for: receiptID, in: folder)) else { return nil }
        return try? JSONDecoder().decode(StoredReceipt.self, from: data)
    }

    /// Every receipt on disk, oldest capture first.
    static func storedReceipts(in folder: URL) -> [StoredReceipt] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names
            .filter { $0.hasSuffix(fileSuffix) }
            .compactMap { load(String($0.dropLast(fileSuffix.count)), in: folder) }
            .sorted { ($0.capturedAt, $0.receiptID) < ($1.capturedAt, $1.receiptID) }
    }
}
