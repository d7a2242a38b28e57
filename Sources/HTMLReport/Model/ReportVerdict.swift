/// The verdict shown in one cell of a report page: a word, a symbol and a short label, so the
/// page reads the same without colour.
///
/// The known words are the matrix's outcomes; any other word (an outcome a newer engine
/// reports) is rendered generically with `?` and the word itself, never dropped.
package struct ReportVerdict: Hashable, Sendable {
    /// The machine word, used by the page's outcome filter: `passed`, `failed`, `xfail`,
    /// `xpass`, `warning`, `skipped`, `blocked`, or any other word.
    package let word: String

    /// Creates a verdict from its word; unknown words are kept as they are.
    /// - Parameter word: The outcome word.
    package init(_ word: String) {
        self.word = word
    }

    /// Every check held.
    package static let passed = ReportVerdict("passed")
    /// A check failed and nothing expected it to.
    package static let failed = ReportVerdict("failed")
    /// A check failed as the ledger (or a known issue) expects.
    package static let expectedFailure = ReportVerdict("xfail")
    /// Passed although the ledger expects a failure: the contract lost its teeth.
    package static let unexpectedPass = ReportVerdict("xpass")
    /// A recommended rule failed: a warning, not an error.
    package static let warning = ReportVerdict("warning")
    /// The contract does not apply to the implementation; never counted as passed.
    package static let notApplicable = ReportVerdict("skipped")
    /// A setup step failed because another rule broke; the cell names that rule.
    package static let blocked = ReportVerdict("blocked")

    /// The known verdicts, in the order the legend lists them.
    package static let known: [ReportVerdict] = [
        .passed, .failed, .expectedFailure, .unexpectedPass, .warning, .notApplicable, .blocked,
    ]

    /// A symbol that tells the verdict apart without colour.
    package var symbol: String {
        switch word {
        case "passed": "✓"
        case "failed": "✗"
        case "xfail": "≈"
        case "xpass": "!"
        case "warning": "⚠"
        case "skipped": "–"
        case "blocked": "⊘"
        default: "?"
        }
    }

    /// The short text shown next to the symbol in a cell, as in the console matrix.
    package var shortLabel: String {
        switch word {
        case "passed": "pass"
        case "failed": "FAIL"
        case "xfail": "xfail"
        case "xpass": "XPASS"
        case "warning": "warn"
        case "skipped": "n/a"
        case "blocked": "blk"
        default: word
        }
    }

    /// The words a reader sees in the legend and the details.
    package var label: String {
        switch word {
        case "passed": "passed"
        case "failed": "failed"
        case "xfail": "expected failure"
        case "xpass": "passed, but expected to fail"
        case "warning": "warning (recommended rule)"
        case "skipped": "not applicable"
        case "blocked": "blocked by another rule"
        default: word
        }
    }

    /// The CSS class of the cell: one of the known words, or `other`.
    package var styleClass: String {
        Self.known.contains(self) ? "v-\(word)" : "v-other"
    }

    /// Whether the verdict breaks a run: an unexpected failure or pass.
    package var isProblem: Bool { self == .failed || self == .unexpectedPass }
}
