import ConformanceKit
import Testing
import WriteQueueContracts

extension QueueSchedule {
    /// Replays this schedule against a queue launched by `adapter` and records the first
    /// violation of I7–I9 or of a Q rule one state can break as an issue at the caller's line, with the transcript attached: the
    /// form of the explorer's printed regression tests for write queues.
    ///
    /// ```swift
    /// @Test func deletesOn503Regression() async {
    ///     let schedule: QueueSchedule = [.submit, .sendingPass, .answer(send: 1, .status(503))]
    ///     await schedule.check(MyQueueAdapter.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: Your queue adapter type.
    ///   - options: The watchdog limit and strictness: a recommended rule's violation (Q11,
    ///     Q12) is a warning unless `strict` is set, as for a contract check.
    ///   - sourceLocation: Where failures point; leave the default.
    public func check<A: WriteQueueAdapter>(
        _ adapter: A.Type, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}
