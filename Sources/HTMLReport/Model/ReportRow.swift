/// One row of a report page: an implementation (or a team's test function) and its cells.
public struct ReportRow: Hashable, Sendable {
    /// The implementation's name, such as `SeedPager`.
    public let name: String
    /// `reference`, `adopter`, `mutant`, or what the source knows (`test`).
    public let kind: String
    /// `model`, `async`, `queue`, `server`, or empty when unknown.
    public let level: String
    /// A short note shown under the name: the summary, or the explorer's figures.
    public let note: String
    /// The cells, in any order; a column with no cell here is shown empty.
    public let cells: [ReportCell]

    /// Creates a row.
    public init(name: String, kind: String, level: String = "", note: String = "", cells: [ReportCell]) {
        self.name = name
        self.kind = kind
        self.level = level
        self.note = note
        self.cells = cells
    }
}
