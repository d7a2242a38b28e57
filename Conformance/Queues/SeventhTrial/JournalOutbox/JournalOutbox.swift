import Foundation

// Queue D (BUGGY on purpose): an append-only journal of outbox events (JSON Lines), folded
// into the current state on launch. Oldest first, one request at a time, a fixed 5 s retry
// delay kept as a due time in the journal.
//
// Shipped bug: the response handling only special-cases 2xx and 409; every other status falls
// into `default:` and is retried later with the same key, so a 400/403/404/422 (a request the
// server will never accept) is resent every 5 s forever.

public actor JournalOutbox {
    public enum Event: Codable, Sendable {
        case enqueued(id: UUID, key: String, label: String, route: String, body: Data, at: Date)
        case attempted(id: UUID, outcome: String, retryAt: Date)
        case delivered(id: UUID, status: Int)
        case conflicted(id: UUID, message: String)
    }

    public struct Item: Sendable {
        public let id: UUID
        public let key: String
        public let label: String
        public let route: String
        public let body: Data
        public let enqueuedAt: Date
        public var attempts = 0
        public var retryAt: Date
        public var conflict: String?
    }

    public struct Upload: Sendable {
        public let route: String
        public let idempotencyKey: String
        public let body: Data
    }

    public typealias Uploader = @Sendable (Upload) async throws -> Int

    public static let retryDelay: TimeInterval = 5

    private let journalURL: URL
    private let uploader: Uploader
    private let now: @Sendable () -> Date
    private var items: [UUID: Item]
    private var uploading: Set<UUID> = []
    public private(set) var messages: [String] = []

    public init(directory: URL, uploader: @escaping Uploader, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        journalURL = directory.appendingPathComponent("outbox.journal")
        if !FileManager.default.fileExists(atPath: journalURL.path) {
            _ = FileManager.default.createFile(atPath: journalURL.path, contents: nil)
        }
        self.uploader = uploader
        self.now = now
        self.items = try Self.fold(Self.events(at: journalURL))
    }

    // MARK: Journal

    public static func events(at url: URL) throws -> [Event] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Event.self, from: Data($0)) }
    }

    public static func fold(_ events: [Event]) -> [UUID: Item] { fold(events, onto: [:]) }

    public static func pendingItems(in directory: URL) throws -> [Item] {
        fold(try events(at: directory.appendingPathComponent("outbox.journal"))).values.sorted { $0.enqueuedAt < $1.enqueuedAt }
    }

    private func append(_ event: Event) throws {
        var line = try JSONEncoder().encode(event)
        line.append(UInt8(ascii: "\n"))
        let handle = try FileHandle(forWritingTo: journalURL)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
        try handle.synchronize()
    }

    private func apply(_ event: Event) throws {
        try append(event)
        items = Self.fold([event], onto: items)
    }

    private static func fold(_ events: [Event], onto start: [UUID: Item]) -> [UUID: Item] {
        var items = start
        for event in events {
            switch event {
            case let .enqueued(id, key, label, route, body, at):
                items[id] = Item(id: id, key: key, label: label, route: route, body: body, enqueuedAt: at, retryAt: at)
            case let .attempted(id, _, retryAt):
                items[id]?.attempts += 1
                items[id]?.retryAt = retryAt
            case let .delivered(id, _):
                items[id] = nil
            case let .conflicted(id, message):
                items[id]?.attempts += 1
                items[id]?.conflict = message
            }
        }
        return items
    }

    // MARK: API

    public func add(route: String, body: Data, label: String) throws {
        let id = UUID()
        try apply(.enqueued(id: id, key: UUID().uuidString, label: label, route: route, body: body, at: now()))
        messages.append("queued \(label)")
    }

    /// Uploads every due item, oldest first, one at a time.
    public func processQueue() async {
        var tried: Set<UUID> = []
        while !Task.isCancelled {
            let current = now()
            guard let next = items.values
                .filter({ $0.conflict == nil && !uploading.contains($0.id) && !tried.contains($0.id) && $0.retryAt <= current })
                .min(by: { $0.enqueuedAt < $1.enqueuedAt })
            else { return }
            tried.insert(next.id)
            uploading.insert(next.id)
            let upload = Upload(route: next.route, idempotencyKey: next.key, body: next.body)
            let result: Result<Int, any Error>
            do {
                let status = try await uploader(upload)
                result = .success(status)
            } catch {
                result = .failure(error)
            }
            uploading.remove(next.id)
            if Task.isCancelled, case .failure(let error) = result, error is CancellationError { return }
            guard items[next.id] != nil else { continue }
            do {
                switch result {
                case .success(let status) where (200..<300).contains(status):
                    try apply(.delivered(id: next.id, status: status))
                    messages.append("uploaded \(next.label)")
                case .success(409):
                    try apply(.conflicted(id: next.id, message: "409 Conflict: key reused with another body"))
                    messages.append("conflict on \(next.label)")
                default:
                    let retryAt = now().addingTimeInterval(Self.retryDelay)
                    try apply(.attempted(id: next.id, outcome: "\(result)", retryAt: retryAt))
                    messages.append("will retry \(next.label) in 5 s")
                }
            } catch {
                messages.append("journal write failed: \(error)")
            }
        }
    }
}
