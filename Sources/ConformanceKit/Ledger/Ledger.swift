/// The contracts an implementation under check is expected to fail, each with the reason, and
/// the cells it is expected to block.
///
/// Every implementation bundled under `Conformance/` declares a ledger. A run fails on an
/// unexpected failure, on an unexpected pass (the suite lost its teeth), on a cell blocked by
/// another rule than the one listed, and on an entry that names a contract the catalogue does
/// not know.
///
/// ```swift
/// let ledger: Ledger = [
///     .fails("P1", because: "marks loading only after the call returns"),
///     .blocked("P5", by: "P1", because: "P5's setup needs a duplicate trigger ignored"),
/// ]
/// ```
public struct Ledger: Hashable, Sendable, ExpressibleByArrayLiteral {
    /// One expected failure, or one expected blocked cell.
    public struct Entry: Hashable, Sendable {
        /// The contract expected to fail (or to be blocked).
        public let contract: ContractID
        /// Why it fails: the bug, in a few words.
        public let reason: String
        /// For a blocked cell: the rule whose breakage blocks `contract`; `nil` for a failure.
        public let blockedBy: ContractID?

        /// Creates an entry; prefer ``fails(_:because:)`` and ``blocked(_:by:because:)``.
        package init(contract: ContractID, reason: String, blockedBy: ContractID? = nil) {
            self.contract = contract
            self.reason = reason
            self.blockedBy = blockedBy
        }

        /// An expected failure of `contract`.
        public static func fails(_ contract: ContractID, because reason: String) -> Entry {
            Entry(contract: contract, reason: reason)
        }

        /// An expected blocked cell: `contract`'s setup steps fail because `blocker` is broken
        /// (the implementation's own failure of `blocker` is listed with ``fails(_:because:)``).
        public static func blocked(
            _ contract: ContractID, by blocker: ContractID, because reason: String = ""
        ) -> Entry {
            Entry(contract: contract, reason: reason, blockedBy: blocker)
        }
    }

    /// The expected failures and blocked cells, in the order written.
    public let entries: [Entry]

    /// Creates a ledger.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    public init(arrayLiteral elements: Entry...) {
        self.init(elements)
    }

    /// The IDs this ledger expects to fail under their own rule (blocked cells excluded).
    package var contracts: Set<ContractID> {
        Set(entries.filter { $0.blockedBy == nil }.map(\.contract))
    }

    /// The cells this ledger expects to be blocked, each with the rule that blocks it.
    package var blockedCells: [ContractID: ContractID] {
        Dictionary(
            entries.compactMap { entry in entry.blockedBy.map { (entry.contract, $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The rule expected to block `contract`, or `nil` when the ledger lists no blocked cell
    /// for it.
    package func blocker(for contract: ContractID) -> ContractID? {
        entries.first { $0.contract == contract && $0.blockedBy != nil }?.blockedBy
    }

    /// Entries that name a contract (or a blocker) the catalogue does not know.
    package func unknownEntries(in catalogue: [ContractDescriptor] = ContractCatalog.all) -> [Entry] {
        let known = Set(catalogue.map(\.id))
        return entries.filter { entry in
            !known.contains(entry.contract) || entry.blockedBy.map { !known.contains($0) } == true
        }
    }

    /// What the ledger expects of `contract`, given whether the contract applies at all.
    package func expectation(for contract: ContractID, applicability: Applicability)
        -> ExpectedOutcome
    {
        guard applicability.isApplicable else { return .skip }
        if contracts.contains(contract) { return .fail }
        return blocker(for: contract) == nil ? .pass : .blocked
    }
}

/// What a ledger expects of one contract.
package enum ExpectedOutcome: String, Hashable, Sendable {
    /// The contract must pass.
    case pass
    /// The contract must fail (a listed, deliberate bug).
    case fail
    /// The contract must be reported as not applicable.
    case skip
    /// The contract must be blocked by the rule the ledger names (see ``Ledger/blocker(for:)``).
    case blocked

    /// Whether `outcome` is what this expectation asks for (for `blocked`, by any rule; a
    /// ``MatrixEntry`` also checks the rule).
    ///
    /// A failure meets `fail` only when the implementation is what failed: an adapter error
    /// says the kit could not judge the rule, so it never stands for the listed bug (a ledger
    /// would otherwise hide a bug the kit never saw).
    package func isMet(by outcome: ContractOutcome) -> Bool {
        switch (self, outcome) {
        case (.fail, .failed(let violations)): violations.contains { $0.kind != .adapterError }
        case (.pass, .passed), (.skip, .notApplicable), (.blocked, .blocked): true
        default: false
        }
    }
}
