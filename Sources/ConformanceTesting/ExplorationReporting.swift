import ConformanceKit
import Testing

/// Turns an explorer's result into Swift Testing issues.
enum ExplorationReporting {
    /// Records the finding of `result`, if any, as one issue at `sourceLocation` (an error, or a
    /// warning for a recommended rule when `strict` is `false`), with the transcript attached.
    static func record(_ result: ExplorationResult, strict: Bool, sourceLocation: SourceLocation) {
        guard let finding = result.finding else { return }
        let isError = strict || finding.tier == .required
        let text = result.fullText
        #if compiler(>=6.2)
            Issue.record(Comment(rawValue: text), severity: isError ? .error : .warning, sourceLocation: sourceLocation)
            Attachment.record(
                finding.report.fullText, named: "explore \(result.subject).txt", sourceLocation: sourceLocation)
        #else
            if isError { Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation) }
        #endif
    }
}
