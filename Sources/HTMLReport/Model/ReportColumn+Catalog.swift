import ConformanceKit

extension ReportColumn {
    /// The column of a contract: its ID, name, tier and rule.
    /// - Parameter contract: The catalogue entry.
    package init(_ contract: ContractDescriptor) {
        self.init(
            id: contract.id.rawValue, name: contract.name, tier: contract.tier.rawValue, rule: contract.rule)
    }

    /// The family heading of a contract ID's letter: `Pagers (P)`, `Write queues (Q)`,
    /// `Servers (S)`, `Invariants (I)`.
    /// - Parameter id: A contract ID such as `P4`.
    package static func family(of id: String) -> String {
        switch id.first {
        case "P": "Pagers (P)"
        case "Q": "Write queues (Q)"
        case "S": "Servers (S)"
        case "I": "Invariants (I)"
        default: "Other"
        }
    }
}
