import Foundation

/// A lock for the engine's few pieces of shared state (a thin wrapper over `NSLock`, which
/// exists on every platform the kit supports, unlike `Mutex` before macOS 15).
final class NSLockLite: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
