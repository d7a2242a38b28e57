import ConformanceKit

extension PagerContract {
    /// Runs this contract against a fresh instance of `adapter` and returns the report.
    ///
    /// This is the framework-agnostic entry point: `ConformanceTesting` turns the report into
    /// Swift Testing issues; an XCTest user can call `XCTFail(report.fullText)`.
    /// - Parameters:
    ///   - adapter: The adapter type; the kit creates a fresh instance with `init()`.
    ///   - options: The watchdog limit and strictness.
    /// - Returns: Passed, failed with violations, or not applicable with the reason.
    public func run<Adapter: PagerModelAdapter>(
        against adapter: Adapter.Type, options: RunOptions = RunOptions()
    ) async -> ContractReport {
        await ContractRun.execute(
            descriptor, subject: String(describing: Adapter.self),
            applicability: applicability(for: Adapter.capabilities), watchdog: options.watchdog
        ) { recorder in
            let timeline = PagerTimeline(
                driver: ModelPagerDriver.factory(Adapter.self)(), recorder: recorder, contract: self.id)
            try await self.timeline(timeline)
        }
    }
}

extension ImplementationUnderCheck {
    /// A bundled pager driven at the model level through `adapter`; the explorer drives it too,
    /// unless `explorable` is `false` (a mutant whose bug no explored schedule can show, left to
    /// the fixed contracts that catch it).
    @inlinable
    public static func pager<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, name: String? = nil, kind: ImplementationKind, summary: String,
        ledger: Ledger = [], explorable: Bool = true
    ) -> ImplementationUnderCheck {
        // Inlined at the caller, so that an optimised build compiles the explorer's drivers for
        // `Adapter`.
        modelPager(
            Adapter.self, driverFactory: ModelPagerDriver.factory(Adapter.self), name: name, kind: kind,
            summary: summary, ledger: ledger, explorable: explorable)
    }

    /// ``pager(_:name:kind:summary:ledger:explorable:)``, with the explorer's drivers made by
    /// `driverFactory`.
    @usableFromInline
    static func modelPager<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, driverFactory: @escaping ModelPagerDriver.Factory, name: String?,
        kind: ImplementationKind, summary: String, ledger: Ledger, explorable: Bool
    ) -> ImplementationUnderCheck {
        let explore: @Sendable (ExplorationOptions) async -> ExplorationResult = { options in
            await PagerExploration.explore(Adapter.self, driverFactory: driverFactory, options: options)
        }
        return pagerImplementation(
            name: name ?? String(describing: Adapter.self), subject: String(describing: Adapter.self),
            kind: kind, level: .model, summary: summary, ledger: ledger,
            applicability: { $0.applicability(for: Adapter.capabilities) },
            run: { contract, options in await contract.run(against: Adapter.self, options: options) },
            explore: explorable ? explore : nil)
    }

    /// The pager family's implementation: every P contract, and a not-applicable report for an
    /// ID outside the family.
    static func pagerImplementation(
        name: String, subject: String, kind: ImplementationKind, level: IntegrationLevel,
        summary: String, ledger: Ledger,
        applicability: @escaping @Sendable (PagerContract) -> Applicability,
        run: @escaping @Sendable (PagerContract, RunOptions) async -> ContractReport,
        explore: (@Sendable (ExplorationOptions) async -> ExplorationResult)? = nil
    ) -> ImplementationUnderCheck {
        let outsideFamily: @Sendable (ContractID) -> String = { "\($0) is not a pager contract" }
        return ImplementationUnderCheck(
            name: name, kind: kind, level: level, summary: summary, ledger: ledger,
            contracts: PagerContract.all.map(\.descriptor),
            applicability: { id in
                PagerContract.contract(id).map(applicability)
                    ?? .notApplicable(reason: outsideFamily(id))
            },
            run: { id, options in
                guard let contract = PagerContract.contract(id) else {
                    return ContractReport(
                        contract: ContractCatalog.descriptor(id)
                            ?? ContractDescriptor(id: id, name: "unknown", rule: ""),
                        subject: subject, outcome: .notApplicable(reason: outsideFamily(id)))
                }
                return await run(contract, options)
            },
            explore: explore)
    }
}
