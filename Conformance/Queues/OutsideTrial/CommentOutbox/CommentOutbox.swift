import Foundation

/// Offline outbox for comments and reactions.
///
/// - Every entry is written to an append-only JSON Lines journal before anything is sent, and
///   the journal is replayed on launch.
/// - Each entry gets a client-generated idempotency key (a UUID) at enqueue; it is stored and
///   sent with every attempt, across relaunches.
/// - Up to `maxConcurrentSends` entries are in flight at once (a task group), but at most one
///   per post, oldest first: entries for one post are delivered in order.
/// - Transient failures (thrown transport errors, 5xx, 408, 409, 429, anything else that is not a
///   2xx or a final 4xx) retry with capped exponential backoff plus jitter.
/// - Any other 4xx drops the entry from the queue and reports it to the UI.
/// - Flushes on enqueue, when the network becomes reachable, and on launch (`start()`).
public actor CommentOutbox {
    public struct Configuration: Sendable {
        public var maxConcurrentSends = 3
        public var baseDelay: TimeInterval = 1
        public var maxDelay: TimeInterval = 120
        public var syncEachWrite = true
        public var compactionThreshold = 200
        public init() {}
    }

    /// Statuses that mean "try again later with the same key".
    public static let retryableClientStatuses: Set<Int> = [408, 409, 429]

    private let directory: URL
    private let transport: any CommentOutboxTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let configuration: Configuration
    private let onRejected: @Sendable (CommentRejection) -> Void
    private let journal: CommentAppendOnlyFile

    private var live: [CommentEntry]
    private var rejected: [CommentEntry]
    private var nextSeq: Int
    private var inFlight: Set<String> = []
    private var isReachable = true

    private var drainTask: Task<Void, Never>?
    private var wakePending = false
    private var wakeWaiter: CheckedContinuation<Void, Never>?
    private var retryTimer: Task<Void, Never>?
    private var retryTimerDeadline: Date?

    private var log: [String] = []
    private let maxLogLines = 500

    public init(
        directory: URL,
        transport: any CommentOutboxTransport,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        configuration: Configuration = Configuration(),
        onRejected: @escaping @Sendable (CommentRejection) -> Void = { _ in }
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = CommentJournalFile.url(in: directory)
        let (lines, unreadable) = try CommentJournalFile.read(url)
        var state = CommentJournalState.replay(lines)
        state.unreadableLines = unreadable

        let needed = state.compactedLines
        if lines.count >= configuration.compactionThreshold, lines.count > 4 * needed.count {
            try Self.compact(needed, into: url)
        } else if let handle = try? FileHandle(forReadingFrom: url) {
            // A crash mid-write can leave a line without its newline: start a fresh line.
            defer { try? handle.close() }
            if let end = try? handle.seekToEnd(), end > 0 {
                try handle.seek(toOffset: end - 1)
                if let last = try handle.read(upToCount: 1), last != Data([UInt8(ascii: "\n")]) {
                    let fixer = try CommentAppendOnlyFile(url: url, syncEachWrite: configuration.syncEachWrite)
                    try fixer.append(Data([UInt8(ascii: "\n")]))
                }
            }
        }

        self.directory = directory
        self.transport = transport
        self.clock = clock
        self.now = now
        self.random = random
        self.configuration = configuration
        self.onRejected = onRejected
        self.journal = try CommentAppendOnlyFile(url: url, syncEachWrite: configuration.syncEachWrite)
        self.live = state.live.map(CommentEntry.init(restoring:))
        self.rejected = state.rejected.map(CommentEntry.init(restoring:))
        self.nextSeq = state.nextSeq
        if unreadable > 0 { log.append("journal: skipped \(unreadable) unreadable line(s)") }
        log.append("launch: restored \(state.live.count) pending, \(state.rejected.count) rejected")
    }

    deinit {
        retryTimer?.cancel()
    }

    // MARK: - Reading the journal without an instance

    /// Replays the journal in `directory` (for diagnostics screens, support tools and tests).
    public static func readJournal(in directory: URL) throws -> [CommentEntrySnapshot] {
        let (lines, _) = try CommentJournalFile.read(CommentJournalFile.url(in: directory))
        let state = CommentJournalState.replay(lines)
        return state.live.map { $0.snapshot(state: .pending) } + state.rejected.map { $0.snapshot(state: .rejected) }
    }

    private static func compact(_ lines: [CommentJournalLine], into url: URL) throws {
        var data = Data()
        for line in lines { data.append(try CommentJournalFile.encode(line)) }
        let tmp = url.deletingLastPathComponent().appendingPathComponent(".\(CommentJournalFile.fileName).\(UUID().uuidString).tmp")
        try data.write(to: tmp)
        guard rename(tmp.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: tmp)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    // MARK: - Public API

    /// Call once after launch: sends whatever the last session left behind.
    public func start() {
        kick("launch")
    }

    public func networkBecameReachable() {
        isReachable = true
        kick("network reachable")
    }

    public func networkBecameUnreachable() {
        isReachable = false
    }

    /// Stores the action, then starts a flush in the background.
    @discardableResult
    public func enqueue(_ action: CommentOutboxAction, localID: String? = nil) throws -> CommentEnqueueOutcome {
        if case .removeReaction(let postID, let reaction) = action,
           let index = live.firstIndex(where: {
               $0.kind == .addReaction && $0.postID == postID && $0.target == reaction
                   && $0.attempts == 0 && !inFlight.contains($0.id)
           }) {
            let add = live[index]
            try append(CommentJournalLine(event: .removed, id: add.id, at: now().timeIntervalSince1970, reason: .cancelledLocally))
            live.remove(at: index)
            record("cancelled \(short(add.id)) locally: reaction removed before it was sent")
            armRetryTimer()
            return .cancelledLocally(cancelledEntryID: add.id)
        }

        let (kind, target, body) = try Self.describe(action)
        let entry = CommentEntry(
            seq: nextSeq, kind: kind, postID: action.postID, target: target, localID: localID,
            body: body, createdAt: now())
        try append(entry.enqueuedLine)
        nextSeq += 1
        live.append(entry)
        record("enqueued \(short(entry.id)) \(kind.rawValue) on post \(entry.postID)")
        kick("enqueue")
        return .queued(entryID: entry.id, idempotencyKey: entry.idempotencyKey)
    }

    /// Sends everything that is due; returns when the drain (this one or the one already
    /// running) has nothing left in flight.
    public func flush() async {
        kick("flush")
        await drainTask?.value
    }

    public var pendingEntries: [CommentEntrySnapshot] { live.map { $0.snapshot(state: .pending) } }

    public var rejections: [CommentRejection] { rejected.map(Self.rejection(for:)) }

    /// The user saw the rejection and dismissed it (or edited and re-posted the comment).
    public func dismissRejection(_ entryID: String) throws {
        guard let index = rejected.firstIndex(where: { $0.id == entryID }) else { return }
        try append(CommentJournalLine(event: .removed, id: entryID, at: now().timeIntervalSince1970, reason: .dismissed))
        rejected.remove(at: index)
    }

    /// Log lines for the debug screen and support bundles. Never contains request bodies.
    public var diagnosticLog: [String] { log }

    // MARK: - Draining

    private func kick(_ reason: String) {
        guard isReachable else { return }
        if drainTask != nil {
            wake()
            return
        }
        drainTask = Task { await self.drain() }
    }

    private func drain() async {
        while true {
            await runWindow()
            if Task.isCancelled || !isReachable || nextSendable() == nil { break }
        }
        drainTask = nil
        wakePending = false
        armRetryTimer()
    }

    private enum Step: Sendable {
        case finished(id: String, outcome: Outcome)
        case woken
    }

    private enum Outcome: Sendable {
        case response(CommentResponse)
        case failure(String)
    }

    private func runWindow() async {
        await withTaskGroup(of: Step.self) { group in
            var sending = 0
            var wakerRunning = false
            while true {
                while sending < configuration.maxConcurrentSends, !Task.isCancelled, isReachable,
                      let entry = nextSendable() {
                    guard let request = claim(entry.id) else { continue }
                    let transport = self.transport
                    let id = entry.id
                    group.addTask {
                        do {
                            let response = try await transport.send(request)
                            return .finished(id: id, outcome: .response(response))
                        } catch {
                            let description = Self.describeError(error)
                            return .finished(id: id, outcome: .failure(description))
                        }
                    }
                    sending += 1
                }
                if sending == 0 { break }
                if !wakerRunning {
                    group.addTask { await self.waitForWake(); return .woken }
                    wakerRunning = true
                }
                guard let step = await group.next() else { break }
                switch step {
                case .woken:
                    wakerRunning = false
                case .finished(let id, let outcome):
                    sending -= 1
                    handle(id: id, outcome: outcome)
                }
            }
            if wakerRunning { wake() }
        }
    }

    private func waitForWake() async {
        if wakePending {
            wakePending = false
            return
        }
        await withCheckedContinuation { continuation in
            wakeWaiter = continuation
        }
    }

    private func wake() {
        if let waiter = wakeWaiter {
            wakeWaiter = nil
            waiter.resume()
        } else {
            wakePending = true
        }
    }

    /// The oldest entry of each post is the only one that may go; it goes when it is due and
    /// not already in flight.
    private func nextSendable() -> CommentEntry? {
        let current = now()
        var blockedPosts: Set<String> = []
        for entry in live {
            if blockedPosts.contains(entry.postID) { continue }
            blockedPosts.insert(entry.postID)
            if inFlight.contains(entry.id) { continue }
            if let due = entry.nextAttemptAt, due.timeIntervalSince(current) > 0.001 { continue }
            return entry
        }
        return nil
    }

    /// Marks the entry as in flight and records the attempt before the request leaves.
    private func claim(_ id: String) -> CommentOutgoingRequest? {
        guard let index = live.firstIndex(where: { $0.id == id }) else { return nil }
        let attempt = live[index].attempts + 1
        do {
            try append(CommentJournalLine(event: .sent, id: id, at: now().timeIntervalSince1970, attempt: attempt))
        } catch {
            record("journal write failed, not sending \(short(id)): \(Self.describeError(error))")
            return nil
        }
        live[index].attempts = attempt
        inFlight.insert(id)
        record("sending \(short(id)) attempt \(attempt)")
        return Self.request(for: live[index])
    }

    private func handle(id: String, outcome: Outcome) {
        inFlight.remove(id)
        guard let index = live.firstIndex(where: { $0.id == id }) else { return }
        switch outcome {
        case .response(let response) where (200..<300).contains(response.statusCode):
            do {
                try append(CommentJournalLine(event: .removed, id: id, at: now().timeIntervalSince1970, reason: .delivered, status: response.statusCode))
                live.remove(at: index)
                record("delivered \(short(id)) (HTTP \(response.statusCode))")
            } catch {
                // Keep it: resending under the same key is harmless.
                record("delivered \(short(id)) but the journal write failed: \(Self.describeError(error))")
            }
        case .response(let response)
            where (400..<500).contains(response.statusCode) && !Self.retryableClientStatuses.contains(response.statusCode):
            let code = Self.errorCode(in: response.body)
            do {
                try append(CommentJournalLine(
                    event: .removed, id: id, at: now().timeIntervalSince1970, reason: .rejected,
                    status: response.statusCode, errorCode: code))
            } catch {
                record("rejection of \(short(id)) not journaled: \(Self.describeError(error))")
            }
            var stopped = live.remove(at: index)
            stopped.rejectedStatus = response.statusCode
            stopped.rejectedErrorCode = code
            stopped.nextAttemptAt = nil
            rejected.append(stopped)
            record("rejected \(short(id)): HTTP \(response.statusCode)\(code.map { " \($0)" } ?? "")")
            onRejected(Self.rejection(for: stopped))
        case .response(let response):
            scheduleRetry(index: index, reason: "HTTP \(response.statusCode)")
        case .failure(let description):
            scheduleRetry(index: index, reason: description)
        }
        armRetryTimer()
    }

    private func scheduleRetry(index: Int, reason: String) {
        let failures = live[index].consecutiveFailures + 1
        let exponential = min(configuration.maxDelay, configuration.baseDelay * pow(2, Double(min(failures - 1, 62))))
        // "Equal jitter": between half and all of the exponential delay, never above the cap.
        let delay = exponential / 2 + exponential / 2 * min(max(random(), 0), 1)
        let due = now().addingTimeInterval(delay)
        live[index].consecutiveFailures = failures
        live[index].nextAttemptAt = due
        let id = live[index].id
        do {
            try append(CommentJournalLine(
                event: .failed, id: id, at: now().timeIntervalSince1970, attempt: live[index].attempts,
                failures: failures, nextAttemptAt: due.timeIntervalSince1970, error: reason))
        } catch {
            record("failure of \(short(id)) not journaled: \(Self.describeError(error))")
        }
        record("attempt \(live[index].attempts) of \(short(id)) failed (\(reason)); retry in \(String(format: "%.2f", delay)) s")
    }

    // MARK: - Retry timer

    private func armRetryTimer() {
        let current = now()
        let waiting = live.compactMap { entry -> Date? in
            guard !inFlight.contains(entry.id), let due = entry.nextAttemptAt, due > current else { return nil }
            return due
        }
        guard let earliest = waiting.min() else {
            retryTimer?.cancel()
            retryTimer = nil
            retryTimerDeadline = nil
            return
        }
        if retryTimer != nil, retryTimerDeadline == earliest { return }
        retryTimer?.cancel()
        retryTimerDeadline = earliest
        let milliseconds = Int64((earliest.timeIntervalSince(current) * 1000).rounded(.up))
        let clock = self.clock
        retryTimer = Task { [weak self] in
            do {
                try await clock.sleep(for: .milliseconds(max(milliseconds, 1)))
            } catch {
                return
            }
            await self?.retryTimerFired()
        }
    }

    private func retryTimerFired() {
        retryTimer = nil
        retryTimerDeadline = nil
        kick("retry timer")
    }

    // MARK: - Helpers

    private func append(_ line: CommentJournalLine) throws {
        try journal.append(CommentJournalFile.encode(line))
    }

    private func record(_ line: String) {
        log.append(line)
        if log.count > maxLogLines { log.removeFirst(log.count - maxLogLines) }
    }

    private func short(_ id: String) -> String { String(id.prefix(8)) }

    private static func describe(_ action: CommentOutboxAction) throws -> (CommentEntryKind, String?, Data) {
        switch action {
        case .postComment(_, let payload):
            return (.comment, nil, payload)
        case .editComment(_, let commentID, let payload):
            return (.editComment, commentID, payload)
        case .addReaction(_, let reaction):
            return (.addReaction, reaction, try CommentJournalFile.makeEncoder().encode(["reaction": reaction]))
        case .removeReaction(_, let reaction):
            return (.removeReaction, reaction, try CommentJournalFile.makeEncoder().encode(["reaction": reaction]))
        }
    }

    private static func request(for entry: CommentEntry) -> CommentOutgoingRequest {
        let post = entry.postID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entry.postID
        let target = (entry.target ?? "").addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        let (method, path): (String, String)
        switch entry.kind {
        case .comment: (method, path) = ("POST", "/v1/posts/\(post)/comments")
        case .editComment: (method, path) = ("PATCH", "/v1/comments/\(target)")
        case .addReaction: (method, path) = ("PUT", "/v1/posts/\(post)/reactions/\(target)")
        case .removeReaction: (method, path) = ("DELETE", "/v1/posts/\(post)/reactions/\(target)")
        }
        return CommentOutgoingRequest(
            method: method, path: path,
            headers: [CommentOutgoingRequest.idempotencyKeyHeader: entry.idempotencyKey, "Content-Type": "application/json"],
            body: entry.body)
    }

    private static func rejection(for entry: CommentEntry) -> CommentRejection {
        CommentRejection(
            entryID: entry.id, localID: entry.localID, postID: entry.postID, kind: entry.kind.rawValue,
            statusCode: entry.rejectedStatus ?? 0, errorCode: entry.rejectedErrorCode, body: entry.body)
    }

    /// The API's `{"error": "<code>", "message": "…"}`: keep the code, never the message
    /// (messages quote what the user typed).
    private static func errorCode(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let code = object["error"] as? String,
              (1...64).contains(code.count),
              code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") })
        else { return nil }
        return code
    }

    private static func describeError(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        let ns = error as NSError
        return "\(ns.domain) \(ns.code)"
    }
}
