import Foundation

// Queue C (BUGGY on purpose): a strictly ordered outbox, one JSON file per pending write.
//
// Shipped bug: the idempotency key is minted by the request builder every time a request is
// built (`RequestBuilder.makeRequest`), instead of once at enqueue time and stored with the
// write. Every retry, and every replay after a relaunch, therefore carries a fresh key, so a
// write whose first request committed on the server but whose answer was lost is created twice.

public struct OutgoingRequest: Sendable {
    public var path: String
    public var headers: [String: String]
    public var body: Data
}

public enum RequestBuilder {
    public static func makeRequest(path: String, body: Data) -> OutgoingRequest {
        OutgoingRequest(
            path: path,
            headers: ["Content-Type": "application/json", "Idempotency-Key": UUID().uuidString],
            body: body)
    }
}

public final class FileFifoOutbox: @unchecked Sendable {
    public struct Entry: Codable, Sendable {
        public let id: UUID
        public let tag: String
        public let path: String
        public let body: Data
        public let enqueuedAt: Date
        public var failureCount: Int
        public var failedPermanently: Bool
        public var failureReason: String?
    }

    public typealias Transport = @Sendable (OutgoingRequest) async throws -> Int

    private let folder: URL
    private let transport: Transport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var isDraining = false
    /// Give up for this drain after this many consecutive failures of the head; the next
    /// drain (app foreground, connectivity change) starts again.
    private let maxAttemptsPerDrain = 8

    public init(folder: URL, transport: @escaping Transport, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        self.transport = transport
        self.clock = clock
        self.now = now
    }

    // MARK: Files

    public static func entries(in folder: URL) throws -> [Entry] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return try files.filter { $0.pathExtension == "json" }
            .map { try JSONDecoder().decode(Entry.self, from: Data(contentsOf: $0)) }
            .sorted { $0.enqueuedAt < $1.enqueuedAt }
    }

    private func fileURL(for id: UUID) -> URL { folder.appendingPathComponent("\(id.uuidString).json") }

    private func write(_ entry: Entry) throws {
        try JSONEncoder().encode(entry).write(to: fileURL(for: entry.id), options: .atomic)
    }

    private func remove(_ entry: Entry) {
        try? FileManager.default.removeItem(at: fileURL(for: entry.id))
    }

    // MARK: API

    @discardableResult
    public func enqueue(path: String, body: Data, tag: String) throws -> Entry {
        let entry = Entry(id: UUID(), tag: tag, path: path, body: body, enqueuedAt: now(),
                          failureCount: 0, failedPermanently: false, failureReason: nil)
        try write(entry)
        return entry
    }

    /// Sends pending writes strictly in the order they were made. A write that cannot be
    /// delivered yet blocks the ones behind it.
    public func drain() async {
        let mayStart = lock.withLock { () -> Bool in
            if isDraining { return false }
            isDraining = true
            return true
        }
        guard mayStart else { return }
        defer { lock.withLock { isDraining = false } }

        var attemptsThisDrain = 0
        while !Task.isCancelled {
            guard var head = (try? Self.entries(in: folder))?.first(where: { !$0.failedPermanently }) else { return }
            let request = RequestBuilder.makeRequest(path: head.path, body: head.body)
            let status: Int?
            do {
                status = try await transport(request)
            } catch is CancellationError {
                return
            } catch {
                status = nil
            }
            switch status {
            case .some(let code) where (200..<300).contains(code):
                remove(head)
                attemptsThisDrain = 0
                continue
            case .some(let code) where code == 409 || ((400..<500).contains(code) && code != 408 && code != 429):
                head.failedPermanently = true
                head.failureReason = "server refused the write (HTTP \(code))"
                try? write(head)
                attemptsThisDrain = 0
                continue
            default:
                head.failureCount += 1
                try? write(head)
                attemptsThisDrain += 1
                if attemptsThisDrain >= maxAttemptsPerDrain { return }
                let seconds = min(1 << min(head.failureCount - 1, 10), 30)
                do { try await clock.sleep(for: .seconds(seconds), tolerance: nil) } catch { return }
            }
        }
    }
}
