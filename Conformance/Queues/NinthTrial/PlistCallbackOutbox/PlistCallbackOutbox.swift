import Foundation

/// The app's completion-handler HTTP client (a `URLSession` data-task wrapper).
/// `completion` receives the HTTP status, or an error when no response arrived.
public protocol PlistOutboxHTTPClient: Sendable {
    func post(
        idempotencyKey: String, body: Data, completion: @escaping @Sendable (Result<Int, any Error>) -> Void)
}

/// A pre-concurrency outbox: all state is touched on one serial `DispatchQueue`, the queue is a
/// property list file, the HTTP client calls back on its own thread. Each task has a due time;
/// a flush sends the due tasks one after another and calls back when it is done. A flush
/// requested while one runs joins it.
public final class PlistCallbackOutbox: @unchecked Sendable {
    public struct Item: Codable, Sendable, Equatable {
        public var id: String
        public var idempotencyKey: String
        public var body: Data
        public var createdAt: Date
        public var attempts: Int
        public var notBefore: Date
        public var isHeld: Bool
        public var heldReason: String?
    }

    private let queue = DispatchQueue(label: "com.example.outbox")
    private let fileURL: URL
    private let client: any PlistOutboxHTTPClient
    private let now: @Sendable () -> Date
    private let maxDelay: TimeInterval = 16
    private var isFlushing = false
    private var flushCompletions: [@Sendable () -> Void] = []
    private var logLines: [String] = []

    public init(directory: URL, client: any PlistOutboxHTTPClient, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = Self.fileURL(in: directory)
        self.client = client
        self.now = now
    }

    static func fileURL(in directory: URL) -> URL { directory.appendingPathComponent("outbox.plist") }

    public static func items(in directory: URL) -> [Item] {
        guard let data = try? Data(contentsOf: fileURL(in: directory)) else { return [] }
        return (try? PropertyListDecoder().decode([Item].self, from: data)) ?? []
    }

    // MARK: Public API

    public func enqueue(id: String = UUID().uuidString, body: Data) throws {
        try queue.sync {
            let date = now()
            var items = load()
            items.append(
                Item(
                    id: id, idempotencyKey: UUID().uuidString, body: body, createdAt: date, attempts: 0,
                    notBefore: date, isHeld: false, heldReason: nil))
            try save(items)
            logLines.append("enqueued \(id)")
        }
    }

    public func flush(completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.flushCompletions.append(completion)
            guard !self.isFlushing else { return }
            self.isFlushing = true
            let date = self.now()
            let due = self.load().filter { !$0.isHeld && $0.notBefore <= date }.map(\.id)
            self.sendNext(due[...])
        }
    }

    public func flush() async {
        await withCheckedContinuation { continuation in
            flush { continuation.resume() }
        }
    }

    public var log: [String] { queue.sync { logLines } }

    /// Returns once every block queued so far has run.
    public func barrier() { queue.sync {} }

    // MARK: On `queue`

    private func load() -> [Item] { Self.items(in: fileURL.deletingLastPathComponent()) }

    private func save(_ items: [Item]) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(items).write(to: fileURL, options: .atomic)
    }

    private func sendNext(_ remaining: ArraySlice<String>) {
        guard let id = remaining.first else { return finishFlush() }
        guard let item = load().first(where: { $0.id == id }), !item.isHeld, item.notBefore <= now() else {
            return sendNext(remaining.dropFirst())
        }
        client.post(idempotencyKey: item.idempotencyKey, body: item.body) { result in
            self.queue.async {
                self.handle(result, for: id)
                self.sendNext(remaining.dropFirst())
            }
        }
    }

    private func finishFlush() {
        isFlushing = false
        let completions = flushCompletions
        flushCompletions = []
        completions.forEach { $0() }
    }

    private func handle(_ result: Result<Int, any Error>, for id: String) {
        var items = load()
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items[index].attempts += 1
        switch result {
        case .success(let status) where (200..<300).contains(status):
            items.remove(at: index)
            logLines.append("\(id): delivered")
        case .success(409):
            items[index].isHeld = true
            items[index].heldReason = "409 Conflict: key reused with a different body"
            logLines.append("\(id): conflict, needs attention")
        case .success(let status) where (400..<500).contains(status):
            // The server rejected the request: retrying the same request cannot succeed.
            items[index].isHeld = true
            items[index].heldReason = "HTTP \(status)"
            logLines.append("\(id): rejected with \(status)")
        case .success, .failure:
            let attempts = items[index].attempts
            let delay = min(maxDelay, pow(2, Double(attempts - 1)))
            items[index].notBefore = now().addingTimeInterval(delay)
            logLines.append("\(id): attempt \(attempts) failed, retry in \(delay) s")
        }
        do { try save(items) } catch { logLines.append("could not save the outbox: \(error)") }
    }
}
