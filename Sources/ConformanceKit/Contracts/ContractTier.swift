/// How strongly the kit insists on a rule.
public enum ContractTier: String, Sendable, Hashable, CaseIterable {
    /// A rule straight from the source documents: a violation is an error.
    case required
    /// A rule that goes beyond the source documents: a violation is reported as a warning
    /// unless the team asks for strict checking.
    case recommended
}
