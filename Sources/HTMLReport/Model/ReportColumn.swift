/// One column of a report page: a contract (or an explorer's verdict), with its rule.
package struct ReportColumn: Hashable, Sendable {
    /// The ID, such as `P4`.
    package let id: String
    /// The short name, such as `late stale response`.
    package let name: String
    /// `required`, `recommended`, or empty when unknown.
    package let tier: String
    /// The rule's text, shown once per column in the details; empty when unknown.
    package let rule: String

    /// Creates a column.
    package init(id: String, name: String, tier: String = "", rule: String = "") {
        self.id = id
        self.name = name
        self.tier = tier
        self.rule = rule
    }

    /// `P4 late stale response`.
    package var title: String { name.isEmpty ? id : "\(id) \(name)" }
}
