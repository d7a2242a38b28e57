/// The catalogue entry of one rule: its stable ID, name, rule text and tier.
///
/// Descriptors carry no checking logic. The pager and queue modules attach a scripted
/// timeline to each descriptor; the descriptor is what reports and ledgers name.
public struct ContractDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The stable ID, such as `P4`.
    public let id: ContractID
    /// The short name, such as `late stale response`.
    public let name: String
    /// The rule, as written in the contract catalogue.
    public let rule: String
    /// Whether a violation is an error or a warning.
    public let tier: ContractTier

    /// Creates a descriptor.
    package init(id: ContractID, name: String, rule: String, tier: ContractTier = .required) {
        self.id = id
        self.name = name
        self.rule = rule
        self.tier = tier
    }

    /// The ID followed by the name: `P4 late stale response`.
    public var title: String { "\(id) \(name)" }

    public var description: String { title }
}
