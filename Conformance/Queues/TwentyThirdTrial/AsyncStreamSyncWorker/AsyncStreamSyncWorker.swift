import Foundation

/// Numbers the worker and the app's URLSession configuration share.
enum AsyncStreamSyncWorkerPolicy {
    static let baseDelay: TimeInterval = 1
    static let backoffCap: TimeInterval = 32
    static let requestTimeout: TimeInterval = 30   // timeoutIntervalForRequest
    static let leaseDuration: TimeInterval = 45    // longer than any request may take
    static let slack: TimeInterval = 0.001         // a due time read back may sit a hair after the wake
    static let retryableClientErrors: Set<Int> = [408, 429]

    /// Decorrelated jitter, `min(cap, random(base, previous * 3))`, replayed from the attempt count
    /// with a generator seeded by the key: a relaunch finds the same delays, all within [base, cap].
    static func retryDelay(afterAttempt attempt: Int, key: String) -> TimeInterval {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a of the key (hashValue differs per process)
        for byte in key.utf8 { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var generator = AsyncStreamSyncWorkerJitter(state: seed)
        var delay = baseDelay
        for _ in 0..<min(max(attempt, 1), 32) {
            delay = min(backoffCap, Double.random(in: baseDelay...min(backoffCap, delay * 3), using: &generator))
        }
        return delay
    }
}

/// SplitMix64: the same sequence on every platform and every run.
struct AsyncStreamSyncWorkerJitter: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        let z = (state ^ (state >> 30)) &* 0xbf58_476d_1ce4_e5b9
        let y = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return y ^ (y >> 31)
    }
}

/// `submit` writes a row and yields a wake-up; one long-lived loop consumes wake-ups and sends
/// every due row, one at a time. Retries are due times in the table; a timer yields the next wake-up.
actor AsyncStreamSyncWorker {
    typealias Post = @Sendable (_ key: String, _ payload: Data) async throws -> Int
    typealias WaitUntil = @Sendable (_ deadline: Date) async throws -> Void
    private typealias Row = AsyncStreamSyncWorkerTable.Row

    private let table: AsyncStreamSyncWorkerTable
    private let post: Post
    private let now: @Sendable () -> Date
    private let waitUntil: WaitUntil
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private var loop: Task<Void, Never>?
    private var drain: Task<Void, Never>?   // this process's one drain, while it runs
    private var timer: Task<Void, Never>?
    private var inFlight: Set<Int64> = []   // rows this process has a request out for

    init(table: AsyncStreamSyncWorkerTable, post: @escaping Post,
         now: @escaping @Sendable () -> Date, waitUntil: @escaping WaitUntil) {
        self.table = table
        self.post = post
        self.now = now
        self.waitUntil = waitUntil
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = stream
        self.wake = continuation
    }

    deinit { wake.finish(); timer?.cancel() }

    /// Starts the worker loop and wakes it once, to send what the last run left due.
    func start() {
        guard loop == nil else { return }
        let wakeUps = self.wakeUps
        loop = Task { [weak self] in
            for await _ in wakeUps {
                guard let self else { return }
                await self.syncNow()
            }
        }
        wake.yield()
    }

    /// Called by the UI layer: the row and its key are committed before the wake-up.
    func submit(label: String, payload: Data) {
        table.insert(label: label, key: UUID().uuidString, payload: payload, at: now().timeIntervalSince1970)
        wake.yield()
    }

    /// Foreground resume, background refresh: join the running drain, then drain once more.
    func syncNow() async {
        if let running = drain { await running.value }
        await drainOnce()
    }

    /// Any call of the actor queues behind work already queued on it.
    func barrier() {}

    private func drainOnce() async {
        if let running = drain { await running.value; return }
        let cycle = Task { await self.sendEverythingDue() }
        drain = cycle
        await cycle.value
        if drain == cycle { drain = nil }
    }

    private func sendEverythingDue() async {
        while !Task.isCancelled, let row = claimNextDueRow() {
            inFlight.insert(row.id)
            let outcome: Result<Int, any Error>
            do { outcome = .success(try await post(row.key, row.payload)) } catch { outcome = .failure(error) }
            inFlight.remove(row.id)
            settle(row, with: outcome)
        }
        armTimer()
    }

    /// The lease is written in the statement that picks the row, before the first `await`.
    private func claimNextDueRow() -> Row? {
        let moment = now().timeIntervalSince1970
        let mine = inFlight
        return table.claimFirst(where: { row in
            guard !mine.contains(row.id), let wakeAt = Self.wakeTime(of: row) else { return false }
            return wakeAt <= moment + AsyncStreamSyncWorkerPolicy.slack
        }, set: { row in
            row.state = .sending
            row.attempts += 1
            row.leaseExpiresAt = moment + AsyncStreamSyncWorkerPolicy.leaseDuration
        })
    }

    /// When a row may next be sent: its due time, or the end of a lease a dead process left.
    private static func wakeTime(of row: AsyncStreamSyncWorkerTable.Row) -> TimeInterval? {
        switch row.state {
        case .pending: return row.nextAttemptAt
        case .sending: return row.leaseExpiresAt ?? row.nextAttemptAt
        case .failed, .conflict: return nil
        }
    }

    /// An unknown outcome keeps the row, key and payload; only the due time and the reason change.
    private func settle(_ row: Row, with outcome: Result<Int, any Error>) {
        let retryAt = now().timeIntervalSince1970
            + AsyncStreamSyncWorkerPolicy.retryDelay(afterAttempt: row.attempts, key: row.key)
        switch outcome {
        case .success(let status) where (200..<300).contains(status):
            table.delete(id: row.id)
        case .success(409):
            write(row, .conflict, reason: "HTTP 409: this key was already used with another body")
        case .success(let status)
            where (400..<500).contains(status) && !AsyncStreamSyncWorkerPolicy.retryableClientErrors.contains(status):
            write(row, .failed, reason: "HTTP \(status)")
        case .success(let status):
            write(row, .pending, reason: "HTTP \(status)", dueAt: retryAt)
        case .failure(let error):
            write(row, .pending, reason: "no response (\(type(of: error)))", dueAt: retryAt)
        }
    }

    private func write(_ row: Row, _ state: AsyncStreamSyncWorkerTable.State, reason: String, dueAt: TimeInterval? = nil) {
        table.update(id: row.id) { stored in
            stored.state = state
            stored.leaseExpiresAt = nil
            stored.lastError = reason
            if let dueAt { stored.nextAttemptAt = dueAt }
        }
    }

    /// One timer for the earliest wake time (rounded up to the ms); the loop does the work.
    private func armTimer() {
        timer?.cancel()
        timer = nil
        let mine = inFlight
        let wakeTimes = table.selectAll().filter { !mine.contains($0.id) }.compactMap(Self.wakeTime(of:))
        guard let earliest = wakeTimes.min() else { return }
        let deadline = Date(timeIntervalSince1970: (earliest * 1000).rounded(.up) / 1000)
        let waitUntil = self.waitUntil
        let wake = self.wake
        timer = Task {
            do { try await waitUntil(deadline) } catch { return }
            wake.yield()
        }
    }
}
