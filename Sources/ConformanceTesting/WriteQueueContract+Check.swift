import ConformanceKit
import Testing
@_exported import WriteQueueContracts

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
        recordQueueReport(report, options: options, sourceLocation: sourceLocation)
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
            recordQueueIssue(
                "\(contract.descriptor.title) is not checked for \(A.self): \(reason)", isWarning: true,
                sourceLocation: sourceLocation)
        }
    }
}

// TODO: switch to ConformanceReporting.record
/// A stand-in for the shared bridge `ConformanceReporting.record(_:options:sourceLocation:)`,
/// which is being written on the main branch; swap it in at merge.
private func recordQueueReport(
    _ report: ContractReport, options: RunOptions, sourceLocation: SourceLocation
) {
    if case .notApplicable(let reason) = report.outcome {
        recordQueueIssue(
            "\(report.contract.title) was not run against \(report.subject): \(reason)", isWarning: true,
            sourceLocation: sourceLocation)
        return
    }
    for violation in report.outcome.violations {
        let isWarning = violation.tier == .recommended && !options.strict && violation.kind == .contract
        recordQueueIssue(report.message(for: violation), isWarning: isWarning, sourceLocation: sourceLocation)
    }
    #if compiler(>=6.2)
    if !report.outcome.violations.isEmpty {
        Attachment.record(report.fullText, named: "\(report.contract.id) \(report.subject).txt")
    }
    #endif
}

/// Records one issue; warnings need the issue severities of Swift 6.2's testing library, and
/// are dropped by older compilers rather than failing the test.
private func recordQueueIssue(_ text: String, isWarning: Bool, sourceLocation: SourceLocation) {
    #if compiler(>=6.2)
    Issue.record(Comment(rawValue: text), severity: isWarning ? .warning : .error, sourceLocation: sourceLocation)
    #else
    if !isWarning { Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation) }
    #endif
}
