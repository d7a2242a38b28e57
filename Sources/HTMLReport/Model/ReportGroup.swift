/// One table of a report page: a family of contracts (pagers, write queues, a team's tests)
/// with its columns and rows.
package struct ReportGroup: Hashable, Sendable {
    /// The family's name, such as `Pagers (P)`; the page's family filter uses it.
    package let family: String
    /// The columns, in order.
    package let columns: [ReportColumn]
    /// The rows, in order.
    package let rows: [ReportRow]

    /// Creates a group.
    package init(family: String, columns: [ReportColumn], rows: [ReportRow]) {
        self.family = family
        self.columns = columns
        self.rows = rows
    }
}
