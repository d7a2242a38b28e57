import Foundation

/// Queue 2: an actor whose sending pass sends up to 3 items at once with a task group.
/// Storage: one JSON file per item in a directory.
public actor R4BatchQueue {
    public struct Item: Codable, Sendable, Equatable {
        public let operation: R4Operation
        public let idempotencyKey: String
        public let enqueuedAt: Date
        public var attempts: Int
        public var notBefore: Date
        public var failure: String?
    }

    enum Outcome: Sendable {
        case delivered
        case rejected(Int)
        case retry(String)
    }

    public static let maxConcurrentSends = 3

    private let directory: URL
    private let baseURL: URL
    private let transport: R4Transport
    private let now: @Sendable () -> Date
    private let log: R4Log
    private var items: [UUID: Item] = [:]
    private var inFlight: Set<UUID> = []

    public init(
        directory: URL,
        baseURL: URL,
        transport: @escaping R4Transport,
        now: @escaping @Sendable () -> Date = { Date() },
        log: @escaping R4Log = { _ in }
    ) throws {
        self.directory = directory
        self.baseURL = baseURL
        self.transport = transport
        self.now = now
        self.log = log
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        var loaded: [UUID: Item] = [:]
        for file in files where file.pathExtension == "json" {
            guard let data = try? Data(contentsOf: file),
                  let item = try? R4JSON.decoder().decode(Item.self, from: data) else {
                log("batch: skipping unreadable file \(file.lastPathComponent)")
                continue
            }
            loaded[item.operation.id] = item
        }
        self.items = loaded
    }

    // MARK: - Public API

    @discardableResult
    public func enqueue(_ operation: R4Operation) throws -> String {
        if let existing = items[operation.id] { return existing.idempotencyKey }
        let t = now()
        let item = Item(operation: operation, idempotencyKey: UUID().uuidString, enqueuedAt: t,
                        attempts: 0, notBefore: t, failure: nil)
        try save(item)
        items[operation.id] = item
        log("batch: enqueued \(operation.label) \(operation.id)")
        return item.idempotencyKey
    }

    /// One sending pass: sends due items, at most `maxConcurrentSends` at a time.
    public func drain() async {
        while true {
            let t = now()
            let batch = items.values
                .filter { $0.failure == nil && $0.notBefore <= t && !inFlight.contains($0.operation.id) }
                .sorted { ($0.enqueuedAt, $0.operation.id.uuidString) < ($1.enqueuedAt, $1.operation.id.uuidString) }
                .prefix(Self.maxConcurrentSends)
            if batch.isEmpty { return }

            let transport = self.transport
            let requests = batch.map { ($0.operation.id, request(for: $0)) }
            do {
                try await withThrowingTaskGroup(of: (UUID, Outcome).self) { group in
                    for (id, request) in requests {
                        group.addTask {
                            await self.markInFlight(id) // BUG: claimed inside the child task, after `batch` was picked; a concurrent drain() can pick the same item before this runs
                            return (id, await Self.send(request, transport: transport))
                        }
                    }
                    for try await (id, outcome) in group {
                        apply(outcome, to: id)
                    }
                }
            } catch {
                // Children never throw; only cancellation of the pass ends up here.
                return
            }
        }
    }

    public func snapshot() -> [Item] {
        items.values.sorted { $0.enqueuedAt < $1.enqueuedAt }
    }

    // MARK: - Internals

    private func markInFlight(_ id: UUID) {
        inFlight.insert(id)
    }

    private func request(for item: Item) -> R4HTTPRequest {
        R4HTTPRequest(
            method: item.operation.method,
            url: baseURL.appendingPathComponent(item.operation.path),
            headers: ["Content-Type": "application/json", "Idempotency-Key": item.idempotencyKey],
            body: item.operation.body
        )
    }

    private static func send(_ request: R4HTTPRequest, transport: R4Transport) async -> Outcome {
        do {
            let response = try await transport(request)
            switch response.statusCode {
            case 200..<300: return .delivered
            case 408, 429: return .retry("HTTP \(response.statusCode)")
            case 400..<500: return .rejected(response.statusCode)
            default: return .retry("HTTP \(response.statusCode)")
            }
        } catch {
            return .retry("no response")
        }
    }

    private func apply(_ outcome: Outcome, to id: UUID) {
        inFlight.remove(id)
        guard var item = items[id] else { return }
        switch outcome {
        case .delivered:
            items[id] = nil
            try? FileManager.default.removeItem(at: fileURL(for: id))
            log("batch: delivered \(item.operation.label) \(id)")
        case .rejected(let code):
            item.failure = "HTTP \(code) for \(item.operation.label) \(id)"
            items[id] = item
            try? save(item)
            log("batch: gave up on \(item.operation.label) \(id): HTTP \(code)")
        case .retry(let reason):
            item.attempts += 1
            let delay = min(pow(2.0, Double(item.attempts)), 300)
            item.notBefore = now().addingTimeInterval(delay)
            items[id] = item
            try? save(item)
            log("batch: will retry \(item.operation.label) \(id) in \(Int(delay))s (\(reason))")
        }
    }

    private func fileURL(for id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }

    private func save(_ item: Item) throws {
        let data = try R4JSON.encoder().encode(item)
        try data.write(to: fileURL(for: item.operation.id), options: .atomic)
    }
}
