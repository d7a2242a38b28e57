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
