/// One implementation bundled under `Conformance/`, with its ledger, ready to run against
/// every contract of its family.
///
/// The pager and queue modules build these with a generic factory over an adapter type; the
/// `conformance` command and the kit's own tests only see this type-erased value.
public struct ImplementationUnderCheck: Sendable, CustomStringConvertible {
    /// The implementation's name, such as `SeedPager` or `PagerThatIgnoresGeneration`.
    public let name: String
    /// Reference, adopter or mutant.
    public let kind: ImplementationKind
    /// How it is driven.
    public let level: IntegrationLevel
    /// One sentence: what it is, or for a mutant, its bug.
    public let summary: String
    /// The contracts it is expected to fail.
    public let ledger: Ledger
    /// The contracts of its family, in catalogue order.
    public let contracts: [ContractDescriptor]

    private let applicabilityOf: @Sendable (ContractID) -> Applicability
    private let runContract: @Sendable (ContractID, RunOptions) async -> ContractReport
    private let exploreSchedules: (@Sendable (ExplorationOptions) async -> ExplorationResult)?

    /// Creates an implementation under check.
    /// - Parameters:
    ///   - applicability: Whether a contract can run against this implementation.
    ///   - run: Runs one contract and returns its report.
    ///   - explore: Explores generated schedules against the invariants, where the level
    ///     supports it (`nil`: not explorable).
    package init(
        name: String,
        kind: ImplementationKind,
        level: IntegrationLevel,
        summary: String,
        ledger: Ledger,
        contracts: [ContractDescriptor],
        applicability: @escaping @Sendable (ContractID) -> Applicability,
        run: @escaping @Sendable (ContractID, RunOptions) async -> ContractReport,
        explore: (@Sendable (ExplorationOptions) async -> ExplorationResult)? = nil
    ) {
        self.name = name
        self.kind = kind
        self.level = level
        self.summary = summary
        self.ledger = ledger
        self.contracts = contracts
        self.applicabilityOf = applicability
        self.runContract = run
        self.exploreSchedules = explore
    }

    /// Whether the explorer can drive this implementation (pagers at the model and async
    /// levels, and write queues).
    public var isExplorable: Bool { exploreSchedules != nil }

    /// Explores generated schedules against the exploration invariants.
    /// - Returns: The result, or `nil` when this implementation is not explorable.
    public func explore(_ options: ExplorationOptions = ExplorationOptions()) async
        -> ExplorationResult?
    {
        guard let exploreSchedules else { return nil }
        return await exploreSchedules(options)
    }

    /// Whether `contract` can run against this implementation.
    public func applicability(of contract: ContractID) -> Applicability {
        applicabilityOf(contract)
    }

    /// What the ledger expects of `contract`.
    package func expectation(for contract: ContractID) -> ExpectedOutcome {
        ledger.expectation(for: contract, applicability: applicability(of: contract))
    }

    /// Runs one contract.
    public func run(_ contract: ContractID, options: RunOptions = RunOptions()) async
        -> ContractReport
    {
        await runContract(contract, options)
    }

    /// Runs one contract and pairs the report with the ledger's expectation.
    package func matrixEntry(for contract: ContractID, options: RunOptions = RunOptions()) async
        -> MatrixEntry
    {
        MatrixEntry(
            implementation: name, kind: kind, level: level,
            report: await run(contract, options: options),
            expected: expectation(for: contract), expectedBlocker: ledger.blocker(for: contract))
    }

    /// Ledger entries that name contracts outside this implementation's family or the
    /// catalogue: each is an error in the run.
    package var unknownLedgerEntries: [Ledger.Entry] {
        ledger.unknownEntries(in: contracts)
    }

    public var description: String { name }
}
