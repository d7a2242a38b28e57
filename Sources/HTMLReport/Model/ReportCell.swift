/// One cell of a report page: an implementation against a contract (or an exploration), its
/// verdict and everything a reader opens it for.
package struct ReportCell: Hashable, Sendable {
    /// The contract's column ID, such as `P4`.
    package let column: String
    /// The verdict.
    package let verdict: ReportVerdict
    /// What the ledger expected (`pass`, `fail`, `skip`), when known.
    package let expected: String?
    /// One line: the first violation's summary, the reason it does not apply, or the rule
    /// that blocked it.
    package let headline: String
    /// The full report, section by section.
    package let sections: [ReportSection]

    /// Creates a cell.
    package init(
        column: String, verdict: ReportVerdict, expected: String? = nil, headline: String = "",
        sections: [ReportSection] = []
    ) {
        self.column = column
        self.verdict = verdict
        self.expected = expected
        self.headline = headline
        self.sections = sections
    }
}
