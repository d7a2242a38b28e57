// CORRECT queue #10 — strict FIFO (ordered mutations: "create folder" must reach the server before
// "move file into folder"). A sending pass works the head task until it is resolved: on an unknown
// outcome it waits a FIXED 5 s on the injected clock and resends the same bytes with the same key,
// at most 6 tries per pass; later tasks wait behind the head (head-of-line by design). A task that
// needs attention or was rejected no longer blocks the line. One pass at a time (single flight:
// a second pass started while one runs returns immediately).
import Foundation

public struct FifoItem: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case queued, acknowledged, attention, rejected }
    public var seq: Int
    public var operationID: String
    public var body: Data
    public var key: String
    public var createdAt: Date
    public var state: State
    public var tries: Int
    public var note: String?
}

public final class FifoDisk: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [FifoItem] = []
    private var nextSeq = 1
    public init() {}
    public var all: [FifoItem] { lock.withLock { items } }
    func append(_ make: (Int) -> FifoItem) -> FifoItem {
        lock.withLock { let i = make(nextSeq); nextSeq += 1; items.append(i); return i }
    }
    func update(_ seq: Int, _ f: (inout FifoItem) -> Void) {
        lock.withLock { if let i = items.firstIndex(where: { $0.seq == seq }) { f(&items[i]) } }
    }
}

public actor SerialFifoWorkerQueue {
    public static let retryDelay: Duration = .seconds(5)
    public static let maxTriesPerPass = 6
    private let disk: FifoDisk
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let post: @Sendable (String, Data) async throws -> Int
    private var running = false

    public init(disk: FifoDisk, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date,
                post: @escaping @Sendable (String, Data) async throws -> Int) {
        self.disk = disk; self.clock = clock; self.now = now; self.post = post
    }

    public func enqueue(operationID: String, body: Data) {
        let t = now()
        _ = disk.append { FifoItem(seq: $0, operationID: operationID, body: body, key: UUID().uuidString,
                                   createdAt: t, state: .queued, tries: 0) }
    }

    public func run() async {
        guard !running else { return }
        running = true
        defer { running = false }
        while let head = disk.all.first(where: { $0.state == .queued }) {
            var resolved = false
            for attempt in 1...Self.maxTriesPerPass {
                let code: Int?
                do { code = try await post(head.key, head.body) } catch { code = nil }
                if Task.isCancelled { return }
                var retry = false
                disk.update(head.seq) { it in
                    it.tries += 1
                    switch code {
                    case let c? where (200..<300).contains(c): it.state = .acknowledged
                    case 409?: it.state = .attention; it.note = "409 conflict (op \(it.operationID))"
                    case let c? where c == 408 || c == 429 || c >= 500: retry = true
                    case let c?: it.state = .rejected; it.note = "HTTP \(c) (op \(it.operationID))"
                    case nil: retry = true
                    }
                }
                if !retry { resolved = true; break }
                if attempt == Self.maxTriesPerPass { break }
                do { try await clock.sleep(for: Self.retryDelay) } catch { return }
            }
            if !resolved { return }   // head still failing: keep order, try again next pass
        }
    }
}
