// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// The slice of `UserDefaults` the outbox uses.
protocol RoundEightKeyValueStore: Sendable {
    func data(forKey key: String) -> Data?
    func set(_ data: Data?, forKey key: String)
}

/// `UserDefaults` as an `RoundEightKeyValueStore` (UserDefaults is thread-safe).
final class RoundEightUserDefaultsStore: RoundEightKeyValueStore, @unchecked Sendable {
    private let defaults: UserDefaults
    init(_ defaults: UserDefaults = .standard) { self.defaults = defaults }
    func data(forKey key: String) -> Data? { defaults.data(forKey: key) }
    func set(_ data: Data?, forKey key: String) { defaults.set(data, forKey: key) }
}

/// An in-memory store, for previews and tests.
final class RoundEightMemoryKeyValueStore: RoundEightKeyValueStore, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Data] = [:]
    init() {}
    func data(forKey key: String) -> Data? { lock.withLock { values[key] } }
    func set(_ data: Data?, forKey key: String) { lock.withLock { values[key] = data } }
}

/// Outbox over a key-value store: an index of pending write IDs, one entry per write (with its
/// idempotency key), and a list of writes the server refused, each with a message for the user.
actor RoundEightKeyValueOutbox {
    struct PendingWrite: Codable, Sendable, Equatable {
        let id: String
        let label: String
        let idempotencyKey: String
        let payload: Data
        let createdAt: Date
        var tries: Int
    }

    struct RefusedWrite: Codable, Sendable, Equatable {
        let write: PendingWrite
        let status: Int
        let userMessage: String
    }

    enum StoreKey {
        static let index = "r8.outbox.pending"
        static let refused = "r8.outbox.refused"
        static func write(_ id: String) -> String { "r8.outbox.write.\(id)" }
    }

    typealias Upload = @Sendable (_ idempotencyKey: String, _ payload: Data) async throws -> Int

    private let store: any RoundEightKeyValueStore
    private let upload: Upload
    private let now: @Sendable () -> Date
    private var uploading: Set<String> = []
    private(set) var debugLog: [String] = []
    private(set) var userFacingErrors: [String] = []

    init(store: any RoundEightKeyValueStore, upload: @escaping Upload, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.upload = upload
        self.now = now
    }

    // MARK: Public API

    @discardableResult
    func add(label: String, payload: Data) throws -> String {
        let write = PendingWrite(id: UUID().uuidString, label: label, idempotencyKey: UUID().uuidString,
                                 payload: payload, createdAt: now(), tries: 0)
        store.set(try JSONEncoder().encode(write), forKey: StoreKey.write(write.id))
        var index = Self.pendingIDs(in: store)
        index.append(write.id)
        store.set(try JSONEncoder().encode(index), forKey: StoreKey.index)
        return write.id
    }

    func sync() async {
        let batch = Self.pendingIDs(in: store).filter { !uploading.contains($0) }
        uploading.formUnion(batch)
        for id in batch {
            defer { uploading.remove(id) }
            guard var write = Self.write(id, in: store) else { continue }
            write.tries += 1
            save(write)
            do {
                let status = try await upload(write.idempotencyKey, write.payload)
                switch status {
                case 200..<300:
                    remove(id)
                case 408, 429, 500..<600:
                    debugLog.append(failureLine(write, reason: "HTTP \(status)"))
                case 409:
                    refuse(write, status: status, message: "This change conflicts with one made elsewhere. Review it and try again.")
                case 400..<500:
                    refuse(write, status: status, message: "The server couldn't accept this change (error \(status)).")
                default:
                    debugLog.append(failureLine(write, reason: "HTTP \(status)"))
                }
            } catch {
                debugLog.append(failureLine(write, reason: String(describing: error)))
            }
        }
    }

    // MARK: Storage

    private func failureLine(_ write: PendingWrite, reason: String) -> String {
        "[Outbox] upload \(write.label) failed (\(reason)), try \(write.tries); payload=\(String(decoding: write.payload, as: UTF8.self))"
    }

    private func save(_ write: PendingWrite) {
        if let data = try? JSONEncoder().encode(write) { store.set(data, forKey: StoreKey.write(write.id)) }
    }

    private func remove(_ id: String) {
        let index = Self.pendingIDs(in: store).filter { $0 != id }
        if let data = try? JSONEncoder().encode(index) { store.set(data, forKey: StoreKey.index) }
        store.set(nil, forKey: StoreKey.write(id))
    }

    private func refuse(_ write: PendingWrite, status: Int, message: String) {
        var refused = Self.refusedWrites(in: store)
        refused.append(RefusedWrite(write: write, status: status, userMessage: message))
        if let data = try? JSONEncoder().encode(refused) { store.set(data, forKey: StoreKey.refused) }
        remove(write.id)
        userFacingErrors.append(message)
        debugLog.append(failureLine(write, reason: "HTTP \(status), moved to refused"))
    }

    static func pendingIDs(in store: any RoundEightKeyValueStore) -> [String] {
        store.data(forKey: StoreKey.index).flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? []
    }

    static func write(_ id: String, in store: any RoundEightKeyValueStore) -> PendingWrite? {
        store.data(forKey: StoreKey.write(id)).flatMap { try? JSONDecoder().decode(PendingWrite.self, from: $0) }
    }

    static func refusedWrites(in store: any RoundEightKeyValueStore) -> [RefusedWrite] {
        store.data(forKey: StoreKey.refused).flatMap { try? JSONDecoder().decode([RefusedWrite].self, from: $0) } ?? []
    }
}
