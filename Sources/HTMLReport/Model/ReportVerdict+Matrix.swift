import ConformanceKit

extension ReportVerdict {
    /// The verdict of one matrix cell, as the console matrix decides it: an expected failure is
    /// `xfail`, a pass the ledger expects to fail is `xpass`, a failure of only recommended
    /// rules is a warning. Outcomes this page does not know (such as `blocked`, or words a
    /// newer engine adds) keep their word.
    ///
    /// - Parameter entry: The matrix cell.
    package init(entry: MatrixEntry) {
        let word = entry.report.outcome.word
        switch word {
        case "passed":
            self = entry.expected == .fail ? .unexpectedPass : .passed
        case "skipped":
            self = .notApplicable
        case "failed":
            if entry.expected == .fail {
                self = .expectedFailure
            } else {
                self = entry.report.hasErrors(strict: false) ? .failed : .warning
            }
        default:
            self = ReportVerdict(word)
        }
    }
}
