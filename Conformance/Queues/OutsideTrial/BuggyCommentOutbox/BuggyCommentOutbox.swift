import Foundation

/// The offline outbox behind the comment composer: every comment or edit the user makes goes
/// into an append-only journal first, then a drain sends it with an idempotency key made once
/// at enqueue, so a resend after a lost answer or a relaunch is deduplicated by the server.
///
/// - Up to three requests at once, at most one per post, oldest entries first.
/// - Thrown errors, 5xx, 408, 409 (our API: "still processing this key") and 429 are retried
///   with equal-jitter exponential backoff; 2xx removes the entry; any other 4xx stops it, and
///   it stays in the journal as rejected until the user edits or discards it.
public actor BuggyCommentOutbox {
    public struct Configuration: Sendable {
        public var maxConcurrentSends = 3
        public var baseDelay: Duration = .seconds(1)
        public var maxDelay: Duration = .seconds(120)
        /// 4xx statuses that mean "try again later" rather than "this request is wrong".
        public var retryableClientErrors: Set<Int> = [408, 409, 429]
        public var diagnosticLogLimit = 500

        public init() {}
    }

    /// An entry in memory: the stored fields plus whether a request for it is in flight.
    struct Entry: Sendable {
        let id: String
        let localID: String?
        let postID: String
        let method: String
        let path: String
        let idempotencyKey: String
        let body: Data
        let createdAt: Date
        var attempts: Int
        var state: BuggyCommentStoredEntry.State = .pending
        var statusCode: Int?
        var retryAt: Date?
        var inFlight = false

        init(
            id: String = UUID().uuidString, localID: String?, postID: String, method: String, path: String,
            body: Data, createdAt: Date, attempts: Int = 0, idempotencyKey: String = UUID().uuidString
        ) {
            self.id = id
            self.localID = localID
            self.postID = postID
            self.method = method
            self.path = path
            self.idempotencyKey = idempotencyKey
            self.body = body
            self.createdAt = createdAt
            self.attempts = attempts
        }

        /// Rebuilds an entry from the journal at launch.
        init(restoring stored: BuggyCommentStoredEntry) {
            self.init(
                id: stored.entryID, localID: stored.localID, postID: stored.postID, method: stored.method,
                path: stored.path, body: stored.body, createdAt: stored.createdAt, attempts: stored.attempts)
            state = stored.state
            statusCode = stored.statusCode
            retryAt = stored.retryAt
        }

        var shortID: String { String(id.prefix(8)) }

        var request: BuggyCommentRequest {
            BuggyCommentRequest(method: method, path: path, idempotencyKey: idempotencyKey, body: body)
        }
    }

    private enum Outcome: Sendable {
        case response(Int)
        case thrown(String)
    }

    private let journal: BuggyCommentJournal
    private let transport: any BuggyCommentTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let configuration: Configuration

    private var entries: [Entry]
    private var drainTask: Task<Void, Never>?
    private var retryTimer: Task<Void, Never>?
    private var retryTimerDue: Date?

    /// Short lines for support ("queued 1a2b3c4d", "retry 1a2b3c4d in 1.4 s after HTTP 503").
    /// Never a body, never a server message.
    public private(set) var diagnosticLog: [String] = []

    /// Opens (or creates) the journal in `directory` and restores what it holds. Nothing is sent
    /// until `start()`, `enqueue(_:localID:)` or `flush()`.
    public init(
        directory: URL,
        transport: any BuggyCommentTransport,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        configuration: Configuration = Configuration()
    ) throws {
        journal = try BuggyCommentJournal(directory: directory)
        self.transport = transport
        self.clock = clock
        self.now = now
        self.random = random
        self.configuration = configuration

        let stored = try BuggyCommentJournal.read(in: directory)
        entries = stored.map(Entry.init(restoring:))
        if !stored.isEmpty {
            let rejected = stored.filter { $0.state == .rejected }.count
            diagnosticLog.append("restored \(stored.count) entries (\(rejected) rejected)")
        }
    }

    /// The entries the journal in `directory` holds, pending and rejected, as stored.
    public static func readJournal(in directory: URL) throws -> [BuggyCommentStoredEntry] {
        try BuggyCommentJournal.read(in: directory)
    }

    // MARK: - Public API

    /// Sends what the journal holds: call once at launch.
    public func start() {
        if drainTask == nil { startDrain() }
    }

    /// Stores the action with a new idempotency key and starts sending. Returns the entry's ID.
    @discardableResult
    public func enqueue(_ action: BuggyCommentAction, localID: String? = nil) throws -> String {
        let entry = Entry(
            localID: localID, postID: action.postID, method: action.method, path: action.path,
            body: action.body, createdAt: now())

        var line = BuggyCommentJournalLine(event: .enqueued, entryID: entry.id, at: entry.createdAt)
        line.localID = entry.localID
        line.postID = entry.postID
        line.method = entry.method
        line.path = entry.path
        line.idempotencyKey = entry.idempotencyKey
        line.body = entry.body
        try journal.append(line)

        entries.append(entry)
        log("queued \(entry.shortID)")
        if drainTask == nil { startDrain() }
        return entry.id
    }

    /// Sends everything that is due: starts a drain, or joins the one running, and returns when
    /// it is done.
    public func flush() async {
        let task = drainTask ?? startDrain()
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Forgets a rejected entry (the user discarded it).
    public func dismiss(entryID: String) throws {
        guard let index = entries.firstIndex(where: { $0.id == entryID }), entries[index].state == .rejected else {
            return
        }
        try journal.append(BuggyCommentJournalLine(event: .removed, entryID: entryID, at: now()))
        entries.remove(at: index)
        log("dismissed \(String(entryID.prefix(8)))")
    }

    /// Entries still waiting to be sent (for the "posting…" badge).
    public var pendingCount: Int {
        entries.filter { $0.state == .pending }.count
    }

    // MARK: - Draining

    @discardableResult
    private func startDrain() -> Task<Void, Never> {
        let task = Task { await self.drain() }
        drainTask = task
        return task
    }

    private func drain() async {
        repeat {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                while !Task.isCancelled {
                    while running < configuration.maxConcurrentSends, let entry = claimNextDueEntry() {
                        let request = entry.request
                        let entryID = entry.id
                        let transport = self.transport
                        group.addTask {
                            let outcome: Outcome
                            do {
                                outcome = .response(try await transport.send(request).statusCode)
                            } catch {
                                outcome = .thrown(String(describing: type(of: error)))
                            }
                            await self.record(outcome, for: entryID)
                        }
                        running += 1
                    }
                    guard running > 0 else { break }
                    await group.next()
                    running -= 1
                }
            }
        } while !Task.isCancelled && hasDueEntry()
        drainTask = nil
        scheduleRetryTimer()
    }

    /// Picks the oldest due entry whose post has nothing in flight, writes its attempt to the
    /// journal and marks it in flight, all before any suspension.
    private func claimNextDueEntry() -> Entry? {
        let moment = now()
        let busyPosts = Set(entries.lazy.filter(\.inFlight).map(\.postID))
        guard
            let index = entries.firstIndex(where: {
                $0.state == .pending && !$0.inFlight && !busyPosts.contains($0.postID) && isDue($0, at: moment)
            })
        else { return nil }

        do {
            try journal.append(BuggyCommentJournalLine(event: .sent, entryID: entries[index].id, at: moment))
        } catch {
            log("journal write failed before sending \(entries[index].shortID)")
            return nil
        }
        entries[index].attempts += 1
        entries[index].inFlight = true
        log("sending \(entries[index].shortID) attempt \(entries[index].attempts)")
        return entries[index]
    }

    private func hasDueEntry() -> Bool {
        let moment = now()
        return entries.contains { $0.state == .pending && !$0.inFlight && isDue($0, at: moment) }
    }

    private func isDue(_ entry: Entry, at moment: Date) -> Bool {
        guard let retryAt = entry.retryAt else { return true }
        return retryAt.timeIntervalSince(moment) <= 0.001
    }

    private func record(_ outcome: Outcome, for entryID: String) {
        guard let index = entries.firstIndex(where: { $0.id == entryID }) else { return }
        entries[index].inFlight = false
        let shortID = entries[index].shortID
        let moment = now()

        switch outcome {
        case .response(let status) where (200..<300).contains(status):
            do {
                try journal.append(BuggyCommentJournalLine(event: .removed, entryID: entryID, at: moment))
            } catch {
                // The server has it; a relaunch would resend under the same key, which it dedupes.
                log("journal write failed after delivering \(shortID)")
            }
            entries.remove(at: index)
            log("delivered \(shortID) HTTP \(status)")

        case .response(let status)
        where (400..<500).contains(status) && !configuration.retryableClientErrors.contains(status):
            var line = BuggyCommentJournalLine(event: .failed, entryID: entryID, at: moment)
            line.statusCode = status
            line.rejected = true
            do { try journal.append(line) } catch { log("journal write failed after rejecting \(shortID)") }
            entries[index].state = .rejected
            entries[index].statusCode = status
            entries[index].retryAt = nil
            log("rejected \(shortID) HTTP \(status)")

        case .response(let status):
            scheduleRetry(at: index, moment: moment, statusCode: status, error: nil, reason: "HTTP \(status)")

        case .thrown(let errorType):
            scheduleRetry(at: index, moment: moment, statusCode: nil, error: errorType, reason: errorType)
        }
    }

    private func scheduleRetry(at index: Int, moment: Date, statusCode: Int?, error: String?, reason: String) {
        let delay = retryDelay(afterAttempt: entries[index].attempts)
        let retryAt = moment.addingTimeInterval(delay)
        var line = BuggyCommentJournalLine(event: .failed, entryID: entries[index].id, at: moment)
        line.statusCode = statusCode
        line.error = error
        line.retryAt = retryAt
        do { try journal.append(line) } catch { log("journal write failed after a failed attempt") }
        if let statusCode { entries[index].statusCode = statusCode }
        entries[index].retryAt = retryAt
        log("retry \(entries[index].shortID) in \(String(format: "%.1f", delay)) s after \(reason)")
    }

    /// Equal jitter: half the capped exponential delay, plus a random share of the other half.
    private func retryDelay(afterAttempt attempts: Int) -> TimeInterval {
        let base = Self.seconds(configuration.baseDelay)
        let cap = Self.seconds(configuration.maxDelay)
        let exponent = Double(min(max(attempts - 1, 0), 62))
        let ceiling = min(cap, base * pow(2, exponent))
        let half = ceiling / 2
        let share = min(max(random(), 0), 1)
        return half + half * share
    }

    // MARK: - Retry timer

    /// After a drain, wakes up when the earliest waiting entry is due.
    private func scheduleRetryTimer() {
        let next = entries.lazy.filter { $0.state == .pending && !$0.inFlight }.compactMap(\.retryAt).min()
        guard let next else {
            retryTimer?.cancel()
            retryTimer = nil
            retryTimerDue = nil
            return
        }
        if retryTimer != nil, retryTimerDue == next { return }
        retryTimer?.cancel()
        retryTimerDue = next
        let delay = max(0, next.timeIntervalSince(now()))
        let clock = self.clock
        retryTimer = Task { [weak self] in
            do {
                try await clock.sleep(for: .seconds(delay))
            } catch {
                return
            }
            guard !Task.isCancelled else { return }
            await self?.retryTimerFired()
        }
    }

    private func retryTimerFired() {
        retryTimer = nil
        retryTimerDue = nil
        if drainTask == nil { startDrain() }
    }

    // MARK: - Helpers

    private func log(_ line: String) {
        diagnosticLog.append(line)
        if diagnosticLog.count > configuration.diagnosticLogLimit {
            diagnosticLog.removeFirst(diagnosticLog.count - configuration.diagnosticLogLimit)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
