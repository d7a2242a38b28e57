@_exported import ServerContracts
import ConformanceKit
import Foundation
import Testing

// No `@retroactive`: ServerContract is declared in this package, and the compiler rejects the
// attribute here ("does not apply; declared in the same package").
extension ServerContract: CustomTestStringConvertible {
    /// The test case's name: the ID and name, such as `S1 same key, same body`.
    public var testDescription: String { descriptor.title }
}

extension ServerContract {
    /// Checks the contract against the server at `baseURL` and records any violation as an
    /// issue at the caller's line, with the whole report attached.
    ///
    /// ```swift
    /// @Test(arguments: ServerContract.all)
    /// func endpointIsIdempotent(_ contract: ServerContract) async {
    ///     await contract.check(against: URL(string: "http://127.0.0.1:8081")!)
    /// }
    /// ```
    ///
    /// A contract that cannot run (S5 without `restart`) records a warning that names it and
    /// the reason, so it is never mistaken for a pass.
    ///
    /// - Parameters:
    ///   - baseURL: The server, such as `http://127.0.0.1:8081`.
    ///   - ietf: `true` when the server declares the IETF idempotency-key draft profile
    ///     (`422` for a reused key with another body, `409` for a key still being processed).
    ///   - restart: Restarts the server on the same storage; without it S5 is skipped.
    ///   - options: The watchdog limit and strictness.
    ///   - sourceLocation: Where issues are recorded; defaults to the caller's line.
    public func check(
        against baseURL: URL,
        ietf: Bool = false,
        restart: (@Sendable () async throws -> Void)? = nil,
        options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: baseURL, ietf: ietf, options: options, restart: restart)
        // TODO: switch to ConformanceReporting.record
        recordServerReport(report, options: options, sourceLocation: sourceLocation)
    }
}

/// Stand-in for the shared bridge `ConformanceReporting.record(_:options:sourceLocation:)`:
/// one issue per violation (a warning for a recommended-tier one unless strict), a warning for
/// a contract that could not run, and the full report attached.
// TODO: switch to ConformanceReporting.record
private func recordServerReport(_ report: ContractReport, options: RunOptions, sourceLocation: SourceLocation) {
    switch report.outcome {
    case .passed:
        return
    case .notApplicable(let reason):
        Issue.record(
            Comment(rawValue: "\(report.contract.title) was not checked: \(reason)"), severity: .warning,
            sourceLocation: sourceLocation)
    case .failed(let violations):
        for violation in violations {
            let isError = options.strict || violation.tier == .required || violation.kind != .contract
            Issue.record(
                Comment(rawValue: report.message(for: violation)), severity: isError ? .error : .warning,
                sourceLocation: sourceLocation)
        }
        Attachment.record(report.fullText, named: "\(report.contract.id).txt", sourceLocation: sourceLocation)
    }
}
