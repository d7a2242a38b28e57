import Foundation

/// Returns once every block queued on the main queue before the call has run, twice over: work
/// a completion handler or a `@MainActor` hop put there (what URLSession-based layers do), and
/// work that work queued in turn, has run when it returns.
///
/// Settling uses it where its evidence would otherwise rest on work it cannot see: a main-actor
/// call is a job on the main queue, never a task the kit started, so only draining the queue
/// shows whether it was about to move.
package func drainMainQueue() async {
    for _ in 0..<2 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}

/// Returns once work already queued for the main queue has run (see ``drainMainQueue()``),
/// and then once a job at the lowest task priority, queued after whatever that work handed on
/// to the global executor, has run twice over.
///
/// The kit moves its manual clock only when nothing it can see runs, and some work it cannot
/// see reads the clock: a `@MainActor` queue's retry timer, `Task { try await clock.sleep(for:) }`,
/// is a job on the main queue that hops to the global executor, and reads `now` there, at the
/// priority of the kit's calls (the lowest rung, so that probes can raise them). Moving the
/// clock before that read makes the timer wait longer than the queue asked (the eighteenth
/// trial's `TicketSyncController`: a retry judged 101 s after a 90 s cap in 28 runs of Q8 out of
/// 60; 2 of 60 with the main queue drained alone; 0 of 300 with both).
///
/// Where the ``GlobalExecutorWatch`` is installed, it then waits until every job queued on the
/// global executor has run (see ``GlobalExecutorWatch/runOut(rounds:stop:)``): on a loaded
/// machine a job at the lowest priority can run before jobs queued ahead of it at a higher one.
/// - Parameter stop: Whether the caller saw what it waits for (an event), so the global
///   executor need not run out.
package func drainQueuedWork(stop: @Sendable () -> Bool = { false }) async {
    await drainMainQueue()
    for _ in 0..<2 {
        await Task.detached(priority: .background) {}.value
    }
    if !stop() { _ = await GlobalExecutorWatch.current?.runOut(stop: stop) }
}
