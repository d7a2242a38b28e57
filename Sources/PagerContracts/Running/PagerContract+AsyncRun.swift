import ConformanceKit

extension PagerContract {
    /// Runs this contract against a fresh subject made by the async `adapter`, once per delivery
    /// mode, and returns the first failing run's report (or a pass).
    ///
    /// - Parameters:
    ///   - adapter: The adapter type; the kit creates a fresh subject per run.
    ///   - options: The watchdog limit and strictness.
    ///   - modes: The delivery modes to run under; all of them by default. The
    ///     `alreadyAvailable` mode replays the answers of the `immediate` run before it, so keep
    ///     `immediate` first when you pass both.
    public func run<Adapter: AsyncPagerAdapter>(
        against adapter: Adapter.Type, options: RunOptions = RunOptions(),
        modes: [DeliveryMode] = DeliveryMode.allCases
    ) async -> ContractReport {
        let applicability = applicability(for: Adapter.capabilities, level: .async)
        if case .notApplicable(let reason) = applicability {
            return ContractReport(
                contract: descriptor, subject: "\(Adapter.self)",
                outcome: .notApplicable(reason: reason))
        }
        var notes: [String] = []
        var last: ContractReport?
        let plan = AnswerPlan()
        for mode in modes {
            let report = await ContractRun.execute(
                descriptor, subject: "\(Adapter.self) (\(mode))",
                watchdog: options.watchdog
            ) { recorder in
                let driver = AsyncPagerDriver<Adapter>(mode: mode, plan: plan)
                await driver.prepare(recorder: recorder)
                let timeline = PagerTimeline(driver: driver, recorder: recorder, contract: self.id)
                do {
                    try await self.timeline(timeline)
                } catch {
                    await driver.finish()
                    throw error
                }
                await driver.finish()
            }
            guard case .passed = report.outcome else { return report }
            notes += report.notes
            last = report
        }
        guard let last else {
            return ContractReport(contract: descriptor, subject: "\(Adapter.self)", outcome: .passed)
        }
        return ContractReport(
            contract: descriptor, subject: "\(Adapter.self)", outcome: last.outcome,
            transcript: last.transcript, notes: Array(Set(notes)).sorted())
    }
}

extension ImplementationUnderCheck {
    /// A bundled pager driven at the async level through `adapter`, under every delivery mode;
    /// the explorer drives it too, picking one delivery mode per schedule from the seed, unless
    /// `explorable` is `false` (the explorer's generator does not yet use the appear trigger,
    /// answer fill-the-screen follow-ups or wait for serial query changes: such pagers are
    /// checked by the fixed contracts only).
    public static func asyncPager<Adapter: AsyncPagerAdapter>(
        _ adapter: Adapter.Type, name: String? = nil, kind: ImplementationKind, summary: String,
        ledger: Ledger = [], explorable: Bool = true
    ) -> ImplementationUnderCheck {
        pagerImplementation(
            name: name ?? String(describing: Adapter.self), subject: String(describing: Adapter.self),
            kind: kind, level: .async, summary: summary, ledger: ledger,
            applicability: { $0.applicability(for: Adapter.capabilities, level: .async) },
            run: { contract, options in await contract.run(against: Adapter.self, options: options) },
            explore: explorable ? exploreAsync(Adapter.self) : nil)
    }
}

/// The explorer's entry for an async adapter.
private func exploreAsync<Adapter: AsyncPagerAdapter>(_ adapter: Adapter.Type)
    -> @Sendable (ExplorationOptions) async -> ExplorationResult
{
    { options in await PagerExploration.explore(Adapter.self, options: options) }
}
