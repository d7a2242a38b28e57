import ConformanceKit

extension ImplementationUnderCheck {
    /// A bundled write queue, type-erased for the conformance matrix, the CLI and the kit's own
    /// tests.
    ///
    /// - Parameters:
    ///   - adapter: The queue's adapter.
    ///   - name: The implementation's name; the adapter's type name by default.
    ///   - kind: Reference, adopter or mutant.
    ///   - summary: One sentence: what it is, or for a mutant, its bug.
    ///   - ledger: The Q contracts it is expected to fail, each with the reason.
    ///   - explorable: `false` for a mutant whose bug no 24-step schedule can show (a backoff
    ///     without a ceiling needs a day of retries): `conformance explore` names it and leaves
    ///     it to its fixed contract.
    /// - Returns: An implementation at the ``IntegrationLevel/queue`` level over ``WriteQueueContract/all``.
    public static func queue<A: WriteQueueAdapter>(
        _ adapter: A.Type, name: String? = nil, kind: ImplementationKind, summary: String,
        ledger: Ledger = [], explorable: Bool = true
    ) -> ImplementationUnderCheck {
        let explore: (@Sendable (ExplorationOptions) async -> ExplorationResult)? =
            explorable ? { @Sendable options in await QueueExploration.explore(A.self, options: options) } : nil
        return ImplementationUnderCheck(
            name: name ?? String(describing: A.self), kind: kind, level: .queue, summary: summary,
            ledger: ledger, contracts: ContractCatalog.writeQueue,
            applicability: { id in
                WriteQueueContract.contract(id)?.applicability(for: A.capabilities)
                    ?? .notApplicable(reason: "\(id) is not a write-queue contract")
            },
            run: { id, options in
                guard let contract = WriteQueueContract.contract(id) else {
                    return ContractReport(
                        contract: ContractDescriptor(id: id, name: "unknown", rule: ""),
                        subject: name ?? String(describing: A.self),
                        outcome: .notApplicable(reason: "\(id) is not a write-queue contract"))
                }
                return await contract.run(against: A.self, options: options)
            },
            explore: explore)
    }
}
