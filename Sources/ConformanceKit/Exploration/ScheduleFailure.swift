/// What broke in a failing schedule, as the search and the shrinker hold it fixed: a rule, the
/// adapter, or a step that never settled.
///
/// Two hits with the same failure are one finding; a shrink candidate counts only if it fails
/// the same way. A rule is a contract, or an invariant whose contract depends on which earlier
/// step caused it (a pager's I1, named by its contract once the schedule is shrunk).
package enum ScheduleFailure: Hashable, Sendable, CustomStringConvertible {
    /// The rule `id` broke, in a check of tier `tier` (a recommended part of a required rule,
    /// such as P10's cycles, is its own finding).
    case rule(ContractID, tier: ContractTier)
    /// The adapter threw or did something the kit cannot interpret.
    case adapterError
    /// A step never settled: the watchdog gave up waiting.
    case hang

    /// The tier of the failed check; an adapter error or a hang is no rule's and counts as
    /// required.
    package var tier: ContractTier {
        if case .rule(_, let tier) = self { tier } else { .required }
    }

    /// The broken rule, if it is one.
    package var rule: ContractID? {
        if case .rule(let id, _) = self { id } else { nil }
    }

    package var description: String {
        switch self {
        case .rule(let id, let tier): "\(id) (\(tier.rawValue))"
        case .adapterError: "adapter error"
        case .hang: "hang"
        }
    }
}

extension ExplorationFinding.Kind {
    /// The kind of a finding whose shrunk schedule failed with `failure`, named by `contract`
    /// when the shrunk replay says which contract its rule belongs to.
    package init(_ failure: ScheduleFailure, contract: ContractID? = nil) {
        switch failure {
        case .rule(let id, _):
            let named = contract ?? id
            self = ContractCatalog.descriptor(named) != nil ? .rule(named) : .adapterError
        case .adapterError: self = .adapterError
        case .hang: self = .hang
        }
    }
}
