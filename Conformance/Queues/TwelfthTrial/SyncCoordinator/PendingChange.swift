import Foundation

/// A local change waiting to reach the server.
struct PendingChange: Codable, Sendable, Identifiable {
    enum Kind: Codable, Sendable, Equatable {
        case create
        case update(entityID: String)
    }

    enum State: String, Codable, Sendable {
        /// Will be sent by the next sync (once `notBefore` has passed).
        case pending
        /// The server refused it; a person has to look at it. See `lastError`.
        case needsAttention
    }

    let id: UUID
    /// Caller-supplied label, shown in the "unsynced changes" screen.
    var label: String
    let kind: Kind
    let path: String
    var body: Data
    let idempotencyKey: String
    let createdAt: Date
    var state: State
    var attempts: Int
    var notBefore: Date?
    var lastError: String?

    var method: String {
        switch kind {
        case .create: "POST"
        case .update: "PATCH"
        }
    }
}

/// Reads and writes the whole set of pending changes as one property list.
struct PendingChangeFile: Sendable {
    let url: URL

    func load() throws -> [UUID: PendingChange] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let stored = try PropertyListDecoder().decode(
            [String: PendingChange].self, from: Data(contentsOf: url))
        var changes: [UUID: PendingChange] = [:]
        for change in stored.values { changes[change.id] = change }
        return changes
    }

    func save(_ changes: [UUID: PendingChange]) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        var stored: [String: PendingChange] = [:]
        for (id, change) in changes { stored[id.uuidString] = change }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(stored).write(to: url, options: .atomic)
    }
}
