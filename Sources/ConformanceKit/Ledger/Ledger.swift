/// The contracts an implementation under check is expected to fail, each with the reason.
///
/// Every implementation bundled under `Conformance/` declares a ledger. A run fails on an
/// unexpected failure, on an unexpected pass (the suite lost its teeth) and on an entry that
/// names a contract the catalogue does not know.
///
/// ```swift
/// let ledger: Ledger = [
///     .fails("P4", because: "appends a response without comparing its generation"),
/// ]
/// ```
public struct Ledger: Hashable, Sendable, ExpressibleByArrayLiteral {
    /// One expected failure.
    public struct Entry: Hashable, Sendable {
        /// The contract expected to fail.
        public let contract: ContractID
        /// Why it fails: the bug, in a few words.
        public let reason: String

        /// An expected failure of `contract`.
        public static func fails(_ contract: ContractID, because reason: String) -> Entry {
            Entry(contract: contract, reason: reason)
        }
    }

    /// The expected failures, in the order written.
    public let entries: [Entry]

    /// Creates a ledger.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    public init(arrayLiteral elements: Entry...) {
        self.init(elements)
    }

    /// The IDs this ledger names.
    public var contracts: Set<ContractID> { Set(entries.map(\.contract)) }

    /// Entries that name a contract the catalogue does not know.
    public func unknownEntries(in catalogue: [ContractDescriptor] = ContractCatalog.all) -> [Entry] {
        let known = Set(catalogue.map(\.id))
        return entries.filter { !known.contains($0.contract) }
    }

    /// What the ledger expects of `contract`, given whether the contract applies at all.
    public func expectation(for contract: ContractID, applicability: Applicability)
        -> ExpectedOutcome
    {
        guard applicability.isApplicable else { return .skip }
        return contracts.contains(contract) ? .fail : .pass
    }
}

/// What a ledger expects of one contract.
public enum ExpectedOutcome: String, Hashable, Sendable {
    /// The contract must pass.
    case pass
    /// The contract must fail (a listed, deliberate bug).
    case fail
    /// The contract must be reported as not applicable.
    case skip

    /// Whether `outcome` is what this expectation asks for.
    public func isMet(by outcome: ContractOutcome) -> Bool {
        switch (self, outcome) {
        case (.pass, .passed), (.fail, .failed), (.skip, .notApplicable): true
        default: false
        }
    }
}
