import ConformanceKit
import Testing

extension ImplementationUnderCheck {
    /// Runs `contract` and records the outcome against this implementation's ledger.
    ///
    /// - Expected to pass: any violation is an issue (strictly: recommended rules too).
    /// - Expected to fail: the violations are recorded as known issues; a pass is an issue,
    ///   because the contract lost its teeth (or the ledger is stale).
    /// - Expected to be skipped: anything but "not applicable" is an issue.
    ///
    /// Teams can use the same mechanism for their own known bugs: wrap an adapter with
    /// ``ImplementationUnderCheck/pager(_:name:kind:summary:ledger:)`` and a ``Ledger``.
    public func check(
        _ contract: ContractID, options: RunOptions = RunOptions(strict: true),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let entry = await matrixEntry(for: contract, options: options)
        let report = entry.report
        switch entry.expected {
        case .pass:
            ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
            if case .notApplicable = report.outcome {
                Issue.record(Comment(rawValue: entry.mismatch ?? ""), sourceLocation: sourceLocation)
            }
        case .fail:
            guard case .failed = report.outcome else {
                Issue.record(
                    Comment(rawValue: entry.mismatch ?? "\(contract) did not fail"),
                    sourceLocation: sourceLocation)
                return
            }
            let reason = ledger.entries.first { $0.contract == contract }?.reason ?? ""
            withKnownIssue(Comment(rawValue: "ledger: \(name) fails \(contract): \(reason)")) {
                ConformanceReporting.record(
                    report, options: options, sourceLocation: sourceLocation)
            }
        case .skip:
            if let mismatch = entry.mismatch {
                Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
            }
        }
    }
}
