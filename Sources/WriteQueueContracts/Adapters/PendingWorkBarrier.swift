import ConformanceKit

/// Tells the kit whether an adapter's ``WriteQueueAdapter/waitForPendingWork(in:)`` is its own
/// or the protocol's default, which returns at once and so runs out no work.
///
/// A pass found idle after rounds of the adapter's barrier is stalled only if that barrier
/// covers the queue's own threads: without one, work on an `OperationQueue` or a thread of the
/// queue's may still be running (the twentieth trial's `PayrollUploadCenter` records an answer
/// on an operation thread, and was found stalled in one run of three).
package enum PendingWorkBarrier {
    /// Set while the kit asks an adapter for its barrier.
    @TaskLocal package static var probe: Probe?

    /// Records whether the default implementation ran.
    package final class Probe: Sendable {
        private let usedDefault = Locked(rawValue: false)
        package init() {}
        package var ranTheDefault: Bool { usedDefault.rawValue }
        func noteDefault() { usedDefault.withLock { $0 = true } }
    }

    /// Called by the default implementation.
    static func noteDefault() { probe?.noteDefault() }
}
