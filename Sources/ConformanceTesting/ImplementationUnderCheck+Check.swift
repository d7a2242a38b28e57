import ConformanceKit
import Testing

extension ImplementationUnderCheck {
    /// Runs `contract` and records the outcome against this implementation's ledger.
    ///
    /// A ledger lists every rule the implementation breaks, recommended ones too, so the
    /// outcome is compared with it whatever the tier: a recommended rule's violation is an
    /// error here, whatever `options.strict` says.
    ///
    /// - Expected to pass: any violation is an issue.
    /// - Expected to fail: the violations are recorded as known issues; a pass is an issue,
    ///   because the contract lost its teeth (or the ledger is stale).
    /// - Expected to be blocked: the blocked issue is recorded as a known issue when the rule
    ///   named in the ledger blocked it; anything else is an issue.
    /// - Expected to be skipped: anything but "not applicable" is an issue.
    ///
    /// Teams can use the same mechanism for their own known bugs: wrap an adapter with
    /// ``ImplementationUnderCheck/pager(_:name:kind:summary:ledger:)`` and a ``Ledger``.
    public func check(
        _ contract: ContractID, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        var options = options
        options.strict = true
        let entry = await matrixEntry(for: contract, options: options)
        let report = entry.report
        switch entry.expected {
        case .pass:
            ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
            if case .notApplicable = report.outcome {
                Issue.record(Comment(rawValue: entry.mismatch ?? ""), sourceLocation: sourceLocation)
            }
        case .fail:
            guard case .failed = report.outcome, entry.matchesLedger else {
                ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
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
        case .blocked:
            guard entry.matchesLedger else {
                ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
                Issue.record(
                    Comment(rawValue: entry.mismatch ?? "\(contract) was not blocked"),
                    sourceLocation: sourceLocation)
                return
            }
            let reason = ledger.entries.first { $0.contract == contract }?.reason ?? ""
            withKnownIssue(
                Comment(rawValue: "ledger: \(name) has \(contract) blocked by \(entry.expectedBlocker?.rawValue ?? "?"): \(reason)")
            ) {
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
