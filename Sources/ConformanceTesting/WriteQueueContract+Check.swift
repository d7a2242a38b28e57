import ConformanceKit
import Testing
import WriteQueueContracts

extension WriteQueueContract: CustomTestStringConvertible {
    /// The contract's ID and name, as a test case is named: `Q3 replay after crash`.
    public var testDescription: String { descriptor.title }
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
    /// violation (Q11, Q12) is a warning unless `options.strict` is set. A contract the adapter
    /// cannot support is recorded as a warning naming the reason, never as a silent pass.
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

extension WriteQueueContract {
    /// Records a warning for every contract `adapter` cannot support, naming the reason, so a
    /// skipped contract is visible instead of missing from the test arguments.
    ///
    /// ```swift
    /// @Test func outboxSkipsNothingSilently() {
    ///     WriteQueueContract.recordNotApplicable(for: OutboxAdapter.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: The team's adapter type.
    ///   - sourceLocation: Where the warnings are recorded; the caller's line by default.
    public static func recordNotApplicable<A: WriteQueueAdapter>(
        for adapter: A.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (contract, reason) in notApplicable(for: adapter) {
            ConformanceReporting.record(
                ContractReport(
                    contract: contract.descriptor, subject: "\(A.self)",
                    outcome: .notApplicable(reason: reason)),
                sourceLocation: sourceLocation)
        }
    }
}
