/// One row of a report page: an implementation (or a team's test function) and its cells.
package struct ReportRow: Hashable, Sendable {
    /// The implementation's name, such as `SeedPager`.
    package let name: String
    /// `reference`, `adopter`, `mutant`, or what the source knows (`test`).
    package let kind: String
    /// `model`, `async`, `queue`, `server`, or empty when unknown.
    package let level: String
    /// A short note shown under the name: the summary, or the explorer's figures.
    package let note: String
    /// The cells, in any order; a column with no cell here is shown empty.
    package let cells: [ReportCell]

    /// Creates a row.
    package init(name: String, kind: String, level: String = "", note: String = "", cells: [ReportCell]) {
        self.name = name
        self.kind = kind
        self.level = level
        self.note = note
        self.cells = cells
    }
}
