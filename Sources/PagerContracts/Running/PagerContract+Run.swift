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
            let timeline = PagerTimeline(driver: ModelPagerDriver<Adapter>(), recorder: recorder)
            try await self.timeline(timeline)
        }
    }
}

extension ImplementationUnderCheck {
    /// A bundled pager driven at the model level through `adapter`.
    public static func pager<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, name: String? = nil, kind: ImplementationKind, summary: String,
        ledger: Ledger = []
    ) -> ImplementationUnderCheck {
        ImplementationUnderCheck(
            name: name ?? String(describing: Adapter.self), kind: kind, level: .model,
            summary: summary, ledger: ledger, contracts: PagerContract.all.map(\.descriptor),
            applicability: { id in
                PagerContract.contract(id)?.applicability(for: Adapter.capabilities)
                    ?? .notApplicable(reason: "\(id) is not a pager contract")
            },
            run: { id, options in
                guard let contract = PagerContract.contract(id) else {
                    return ContractReport(
                        contract: ContractCatalog.descriptor(id)
                            ?? ContractDescriptor(id: id, name: "unknown", rule: ""),
                        subject: String(describing: Adapter.self),
                        outcome: .notApplicable(reason: "\(id) is not a pager contract"))
                }
                return await contract.run(against: Adapter.self, options: options)
            },
            explore: { options in await PagerExploration.explore(Adapter.self, options: options) })
    }
}
