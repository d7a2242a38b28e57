/// The clock ``FileWriteQueue`` stamps tasks with and waits for backoff on.
///
/// Times are durations since the clock's origin, so they can be stored with a task. In an app,
/// bridge a `ContinuousClock`; under test, the conformance kit's manual clock.
package protocol QueueClock: Sendable {
    /// The time since the clock's origin.
    var now: Duration { get }

    /// Suspends until the clock reaches `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled.
    func wait(until deadline: Duration) async throws
}
