import ConformanceKit
import Testing
import WriteQueueContracts

extension WriteQueueContract: CustomTestStringConvertible {
    /// `Q3 replay after crash`, or for a contract that does not apply,
    /// `Q10 no sensitive data in diagnostics (not applicable: …)`.
    public var testDescription: String {
        if let reason = applicability?.reason {
            return "\(descriptor.title) (not applicable: \(reason))"
        }
        return descriptor.title
    }
}

extension WriteQueueContract {
    /// Runs this contract against `adapter` and records every violation as an issue at the
    /// caller's line, with the transcript attached.
    ///
    /// ```swift
    /// @Test(arguments: WriteQueueContract.all(for: OutboxAdapter.self))
    /// func outboxConforms(_ contract: WriteQueueContract) async {
    ///     await contract.check(OutboxAdapter.self)
    /// }
    /// ```
    ///
    /// A required-tier violation, an adapter error or a watchdog is an error; a recommended-tier
    /// violation (Q11, Q12) is a warning unless `options.strict` is set. A contract that does
    /// not apply to the adapter (see ``all(for:)``) is recorded as a warning naming the reason,
    /// never as a silent pass.
    ///
    /// - Parameters:
    ///   - adapter: The team's adapter type.
    ///   - options: The watchdog limit and strictness.
    ///   - sourceLocation: Where issues are recorded; the caller's line by default.
    public func check<A: WriteQueueAdapter>(
        _ adapter: A.Type, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}
