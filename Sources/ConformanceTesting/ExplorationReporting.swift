import ConformanceKit
import Testing

/// Turns an explorer's result into Swift Testing issues.
@usableFromInline
enum ExplorationReporting {
    /// Records each unexpected finding of `result` as one issue at `sourceLocation` (an error,
    /// or a warning for a recommended rule when `strict` is `false`), with its transcript
    /// attached; an expected finding as a warning (shown, never failing); and an expected rule
    /// nothing broke as an error, so its `expecting` entry goes. Its headline (which counts what
    /// was skipped) is attached on every run, a pass included.
    @usableFromInline
    static func record(_ result: ExplorationResult, strict: Bool, sourceLocation: SourceLocation) {
        for finding in result.findings {
            let expected = finding.kind.contract.map { result.expected.contains($0) } ?? false
            let isError = !expected && (strict || finding.tier == .required)
            let text = (expected ? "Expected finding (listed in `expecting`): " : "") + result.report(of: finding)
            #if compiler(>=6.2)
                Issue.record(Comment(rawValue: text), severity: isError ? .error : .warning, sourceLocation: sourceLocation)
                Attachment.record(
                    finding.report.fullText, named: "explore \(result.subject) \(runName(result)) \(finding.invariant.id).txt",
                    sourceLocation: sourceLocation)
            #else
                if isError { Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation) }
            #endif
        }
        #if compiler(>=6.2)
            // The headline (how many schedules ran, what the search skipped: triggers it could
            // not settle by evidence, inapplicable schedules, failures whose replay passed, each
            // of those described) is attached on every run, a pass included: an outside trial
            // found a passing queue exploration said nothing at all.
            Attachment.record(
                ([result.headline] + (result.unreproducedReport.map { [$0] } ?? [])).joined(separator: "\n\n"),
                named: "explore \(result.subject) \(runName(result)) summary.txt", sourceLocation: sourceLocation)
        #endif
        for id in result.expectedButNotFound {
            Issue.record(
                Comment(
                    rawValue: "\(result.subject): \(ContractCatalog.descriptor(id)?.title ?? id.rawValue) was expected "
                        + "(listed in `expecting`) but no schedule broke it in \(result.schedules) schedules "
                        + "(\(result.strategy)): if the bug is fixed, remove it from `expecting`."),
                sourceLocation: sourceLocation)
        }
    }

    /// `seed 7` or `depth 5`: in an attachment's name, so the files a run over several seeds
    /// writes (each with a suffix Swift Testing adds) say which run they are (an outside trial
    /// opened each to find its seed).
    private static func runName(_ result: ExplorationResult) -> String {
        switch result.strategy {
        case .random(let seed): "seed \(seed)"
        case .exhaustive(let depth): "depth \(depth)"
        }
    }
}
