import Foundation

/// The queue a launch trigger returns, handed from the trigger's task to the harness.
final class LaunchedQueue<Queue: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: Queue?

    var value: Queue? { lock.withLock { queue } }

    func set(_ queue: Queue) {
        lock.withLock { self.queue = queue }
    }
}
