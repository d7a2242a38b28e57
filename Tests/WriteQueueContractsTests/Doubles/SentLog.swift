/// The keys the parent's transport saw, in order.
final class SentLog: Sendable {
    private let lock = NSLockBox()
    nonisolated(unsafe) private var storage: [String] = []

    func append(_ key: String) { lock.run { storage.append(key) } }
    var keys: [String] { lock.run { storage } }
}
