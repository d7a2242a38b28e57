/// Everything one report page shows, independent of HTML: the title, the source, the run
/// time, and the tables of cells.
///
/// The `conformance` command builds one from a matrix run, from an exploration, or from a
/// team's Swift Testing event stream; ``ReportPageWriter`` turns it into a single
/// self-contained HTML file.
package struct ReportDocument: Hashable, Sendable {
    /// The page's heading, such as `Conformance matrix`.
    package let title: String
    /// Where the results come from, such as `swift run conformance` or the event stream's path.
    package let source: String
    /// The run's wall time in seconds, when known.
    package let runSeconds: Double?
    /// Lines shown under the totals: the run's own verdict, mismatches, notes.
    package let notes: [String]
    /// The tables.
    package let groups: [ReportGroup]
    /// What the totals call the rows: `implementations`, or `rows` when they mix adapters and
    /// other tests.
    package let rowNoun: String

    /// Creates a document.
    package init(
        title: String, source: String, runSeconds: Double? = nil, notes: [String] = [],
        groups: [ReportGroup], rowNoun: String = "implementations"
    ) {
        self.rowNoun = rowNoun
        self.title = title
        self.source = source
        self.runSeconds = runSeconds
        self.notes = notes
        self.groups = groups
    }

    /// Every cell of every group.
    package var cells: [ReportCell] { groups.flatMap { $0.rows.flatMap(\.cells) } }

    /// How many cells have each verdict, in the legend's order, unknown words last.
    package var totals: [(verdict: ReportVerdict, count: Int)] {
        var counts: [ReportVerdict: Int] = [:]
        for cell in cells { counts[cell.verdict, default: 0] += 1 }
        let unknown = counts.keys.filter { !ReportVerdict.known.contains($0) }.sorted { $0.word < $1.word }
        return (ReportVerdict.known + unknown).compactMap { verdict in
            counts[verdict].map { (verdict, $0) }
        }
    }
}
