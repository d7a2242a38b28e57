import ConformanceKit
import Testing

/// Turns the engine's reports into Swift Testing issues and attachments.
///
/// Every `check` entry point of the kit ends here, so every family of contracts fails the
/// same way: one issue per violation at the caller's source line, a message that reads like a
/// bug report, and the whole transcript attached.
public enum ConformanceReporting {
    /// Records `report` in the current test.
    ///
    /// - A pass records nothing.
    /// - A contract that does not apply records a warning naming the contract and the reason,
    ///   so it is never silently counted as passed.
    /// - Each violation records an issue: an error for a required rule, an adapter error or a
    ///   watchdog; a warning for a recommended rule unless `options.strict`.
    /// - A blocked cell records one issue titled with the blocking rule (its ID and name, its
    ///   text and hint), an error when that rule is required: the contract itself was not
    ///   judged, but the implementation breaks the rule that blocked it.
    ///
    /// - Parameters:
    ///   - report: The engine's report.
    ///   - options: `strict` makes recommended-tier findings errors.
    ///   - sourceLocation: Where the issue points: the user's `check` call.
    public static func record(
        _ report: ContractReport, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation
    ) {
        switch report.outcome {
        case .passed:
            return
        case .notApplicable(let reason):
            let text = "\(report.contract.title) was skipped, not passed: it does not apply to "
                + "\(report.subject) (\(reason))."
            recordIssue(text, isError: false, sourceLocation: sourceLocation)
        case .failed(let violations):
            for violation in violations {
                let isError =
                    options.strict || violation.tier == .required || violation.kind != .contract
                recordIssue(
                    report.message(for: violation), isError: isError,
                    sourceLocation: sourceLocation)
            }
            attachTranscript(of: report, sourceLocation: sourceLocation)
        case .blocked(let blocker, let violation):
            let isError =
                options.strict || violation.tier == .required || violation.kind != .contract
            recordIssue(
                report.blockedMessage(by: blocker, violation), isError: isError,
                sourceLocation: sourceLocation)
            attachTranscript(of: report, sourceLocation: sourceLocation)
        }
    }

    private static func recordIssue(_ text: String, isError: Bool, sourceLocation: SourceLocation) {
        #if compiler(>=6.2)
            Issue.record(
                Comment(rawValue: text), severity: isError ? .error : .warning,
                sourceLocation: sourceLocation)
        #else
            if isError { Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation) }
        #endif
    }

    private static func attachTranscript(of report: ContractReport, sourceLocation: SourceLocation) {
        #if compiler(>=6.2)
            Attachment.record(
                report.fullText, named: "\(report.contract.id) \(report.subject).txt",
                sourceLocation: sourceLocation)
        #endif
    }
}
