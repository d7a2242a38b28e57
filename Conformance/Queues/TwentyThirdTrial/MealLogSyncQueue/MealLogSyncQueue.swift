import Foundation

/// One diary entry waiting to reach the server: one file per entry in the outbox folder.
struct MealLogSyncEntry: Codable, Sendable {
    enum Status: String, Codable, Sendable { case queued, rejected }

    let entryID: String            // names the file
    let sourceOperation: String    // what produced it (quick-add button, widget, Siri intent …)
    let idempotencyKey: String
    let payload: Data
    let loggedAt: TimeInterval     // seconds since 1970, from the injected clock
    var status: Status
    var attempts: Int
    var retryAfter: TimeInterval
    var rejectionReason: String?
}

/// The meal diary's sync queue, in the app's older GCD style: every state change happens on one
/// serial queue, the HTTP client calls back on its own thread, and a sync reports completion
/// through a callback. Entries go oldest first, one request at a time.
final class MealLogSyncQueue: @unchecked Sendable {
    typealias Completion = @Sendable (Result<Int, any Error>) -> Void
    typealias Transport = @Sendable (_ key: String, _ payload: Data, _ completion: @escaping Completion) -> Void

    /// Wait before the 1st, 2nd, … retry; the last rung (30 s) is the cap.
    static let retryLadder: [TimeInterval] = [2, 4, 8, 16, 30]
    static let retryableClientErrors: Set<Int> = [408, 429]

    private let folder: URL
    private let transport: Transport
    private let now: @Sendable () -> Date
    private let work = DispatchQueue(label: "meallog.sync.work")

    // Only touched on `work`.
    private var uploading: Set<String> = []
    private var isSyncing = false
    private var syncWaiters: [@Sendable () -> Void] = []

    init(folder: URL, transport: @escaping Transport, now: @escaping @Sendable () -> Date) {
        self.folder = folder
        self.transport = transport
        self.now = now
    }

    /// Quick-add from the diary. The entry's file is written before this returns.
    func logMeal(_ payload: Data, sourceOperation: String) throws {
        let entry = MealLogSyncEntry(
            entryID: UUID().uuidString, sourceOperation: sourceOperation,
            idempotencyKey: Self.stableKey(for: payload), payload: payload,
            loggedAt: now().timeIntervalSince1970, status: .queued, attempts: 0, retryAfter: 0,
            rejectionReason: nil)
        try work.sync { try write(entry) }
    }

    /// Sends every due entry, then calls `completion` (on the work queue). A sync requested while
    /// one runs joins it: its completion is called when that sync ends.
    func sync(completion: @escaping @Sendable () -> Void) {
        work.async {
            self.syncWaiters.append(completion)
            guard !self.isSyncing else { return }
            self.isSyncing = true
            self.sendNextDue()
        }
    }

    /// Blocks until the work queue has run everything queued on it so far.
    func waitUntilIdle() {
        work.sync {}
    }

    /// The idempotency key is derived from what is logged, so the same entry always carries the
    /// same key: a retry, even from a relaunched app after a crash, can never mint a second key,
    /// and nothing extra has to be stored to keep it stable.
    static func stableKey(for payload: Data) -> String {
        var high: UInt64 = 0xcbf2_9ce4_8422_2325
        var low: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in Array("meallog/v1:".utf8) + Array(payload) {
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            low = (low << 7) | (low >> 57)
        }
        let hex = Array(String(format: "%016llx%016llx", high, low))
        let groups = [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]]
        return groups.map { String($0) }.joined(separator: "-")
    }

    static func storedEntries(in folder: URL) -> [MealLogSyncEntry] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "mealentry" }
            .compactMap { try? JSONDecoder().decode(MealLogSyncEntry.self, from: Data(contentsOf: $0)) }
            .sorted { ($0.loggedAt, $0.entryID) < ($1.loggedAt, $1.entryID) }
    }

    // MARK: - On `work`

    private func sendNextDue() {
        let moment = now().timeIntervalSince1970
        let next = Self.storedEntries(in: folder).first {
            $0.status == .queued && $0.retryAfter <= moment && !uploading.contains($0.entryID)
        }
        guard let entry = next else {
            isSyncing = false
            let waiters = syncWaiters
            syncWaiters = []
            waiters.forEach { $0() }
            return
        }
        uploading.insert(entry.entryID)
        transport(entry.idempotencyKey, entry.payload) { result in
            self.work.async {
                self.uploading.remove(entry.entryID)
                self.record(result, for: entry.entryID)
                self.sendNextDue()
            }
        }
    }

    private func record(_ result: Result<Int, any Error>, for entryID: String) {
        guard var entry = read(entryID) else { return }
        switch result {
        case .success(let status) where (200..<300).contains(status):
            try? FileManager.default.removeItem(at: fileURL(entryID))   // synced: leaves the outbox
            return
        case .success(let status)
            where (400..<500).contains(status) && !Self.retryableClientErrors.contains(status):
            entry.status = .rejected
            entry.rejectionReason = status == 409 ? "server answered 409 (key reused)" : "server answered \(status)"
        case .success, .failure:
            entry.attempts += 1
            let wait = Self.retryLadder[min(entry.attempts, Self.retryLadder.count) - 1]
            entry.retryAfter = now().timeIntervalSince1970 + wait
        }
        try? write(entry)
    }

    private func fileURL(_ entryID: String) -> URL {
        folder.appendingPathComponent(entryID).appendingPathExtension("mealentry")
    }

    private func read(_ entryID: String) -> MealLogSyncEntry? {
        try? JSONDecoder().decode(MealLogSyncEntry.self, from: Data(contentsOf: fileURL(entryID)))
    }

    private func write(_ entry: MealLogSyncEntry) throws {
        try JSONEncoder().encode(entry).write(to: fileURL(entry.entryID), options: .atomic)
    }
}
