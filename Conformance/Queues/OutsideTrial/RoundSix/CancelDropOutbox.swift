// From an outside trial (round six): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Queue (c), BUGGY on purpose. A JSON-file outbox that treats a cancelled request
/// (`URLError(.cancelled)`, what URLSession reports when the app cancels its data task, e.g. on
/// going to the background) as "the user cancelled this write" and deletes the task, although the
/// request may have reached the server. Everything else is handled correctly.
public struct CancelDropTask: Codable, Sendable {
    public var op: String
    public var key: String
    public var body: Data
    public var created: Date
    public var tries: Int
    public var dueAt: Date
    public var halted: String?
}

public actor CancelDropOutbox {
    public typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> Int
    private let file: URL
    private let post: Post
    private let now: @Sendable () -> Date
    private var leased: Set<String> = []
    public private(set) var log: [String] = []

    public init(folder: URL, post: @escaping Post, now: @escaping @Sendable () -> Date) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("queue.json"); self.post = post; self.now = now
    }

    public static func read(_ folder: URL) throws -> [CancelDropTask] {
        guard let d = try? Data(contentsOf: folder.appendingPathComponent("queue.json")) else { return [] }
        return try JSONDecoder().decode([CancelDropTask].self, from: d)
    }
    private func all() throws -> [CancelDropTask] { try Self.read(file.deletingLastPathComponent()) }
    private func write(_ tasks: [CancelDropTask]) throws {
        let e = JSONEncoder(); e.outputFormatting = .sortedKeys
        try e.encode(tasks).write(to: file, options: .atomic)
    }
    private func update(_ key: String, _ f: (inout CancelDropTask) -> Void) throws {
        var ts = try all(); if let i = ts.firstIndex(where: { $0.key == key }) { f(&ts[i]); try write(ts) }
    }
    private func remove(_ key: String) throws { var ts = try all(); ts.removeAll { $0.key == key }; try write(ts) }

    public func add(op: String, body: Data) throws {
        var ts = try all()
        let t = now()
        ts.append(CancelDropTask(op: op, key: UUID().uuidString, body: body, created: t, tries: 0, dueAt: t, halted: nil))
        try write(ts)
    }

    public func sync() async throws {
        while !Task.isCancelled {
            let t = now()
            guard let task = try all().first(where: { $0.halted == nil && !leased.contains($0.key) && $0.dueAt <= t }) else { return }
            leased.insert(task.key)
            defer { leased.remove(task.key) }
            try update(task.key) { $0.tries += 1 }
            do {
                let status = try await post(task.key, task.body)
                switch status {
                case 200...299: try remove(task.key); log.append("\(task.op) ok")
                case 409: try update(task.key) { $0.halted = "conflict (409)" }; log.append("\(task.op) conflict")
                case 408, 429, 500...599: try retryLater(task.key); log.append("\(task.op) \(status) retry")
                case 400...499: try update(task.key) { $0.halted = "client error \(status)" }; log.append("\(task.op) \(status) stop")
                default: try retryLater(task.key)
                }
            } catch let error as URLError where error.code == .cancelled {
                // BUG: "cancelled means the user gave up on it" -> drop the write.
                try remove(task.key)
                log.append("\(task.op) cancelled, dropped")
            } catch {
                try retryLater(task.key); log.append("\(task.op) network error, retry")
            }
        }
    }

    private func retryLater(_ key: String) throws {
        let answered = now()
        try update(key) { $0.dueAt = answered.addingTimeInterval(min(20, pow(2, Double(min($0.tries, 10))))) }
    }
}
