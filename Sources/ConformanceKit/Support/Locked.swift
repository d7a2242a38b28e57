import Foundation

/// A value shared between threads and tasks, reachable only while its lock is held.
///
/// The kit's one lock type: every piece of mutable state that more than one task can reach
/// lives in a `Locked` (or in an actor), so there is no field to forget to guard. Keep the
/// closures short and synchronous: never await, block, or call code you do not own (a
/// subject's completion handler, a continuation's `resume`) while holding the lock; return
/// what to do and do it after `withLock` returns.
///
/// ```swift
/// let hits = Locked(rawValue: [Int]())
/// hits.withLock { $0.append(3) }
/// hits.rawValue  // [3]
/// ```
///
/// It wraps `NSLock`, which exists on every platform the kit supports (`Mutex` needs macOS 15
/// and its peers). The lock is not recursive: calling `withLock` on the same value from inside
/// its own closure deadlocks.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates a locked value.
    /// - Parameter rawValue: The initial value.
    package init(rawValue: Value) {
        value = rawValue
    }

    /// Runs `body` with exclusive access to the value.
    /// - Parameter body: Reads or changes the value; it must not call back into this lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; the lock is released either way.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value, read under the lock.
    package var rawValue: Value {
        withLock { $0 }
    }
}
