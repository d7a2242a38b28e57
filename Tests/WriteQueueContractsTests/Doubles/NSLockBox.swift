import Foundation

/// A lock for the tests' small pieces of shared state.
final class NSLockBox: Sendable {
    private let lock = NSLock()

    func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
