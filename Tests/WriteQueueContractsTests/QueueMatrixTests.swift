import BundledImplementations
import ConformanceKit
import Testing
import WriteQueueContracts

/// Every Q contract against every bundled queue: references and the adopter pass everything
/// applicable, and each mutant fails exactly the contracts its ledger lists.
@Suite("Bundled queues × Q contracts")
struct QueueMatrixTests {
    // One cell at a time, for the reason `bundledImplementationHonoursItsLedger` gives: a
    // watchdog measures wall time, and hundreds of cells started together starve the longest.
    @Test(
        "Each bundled queue honours its ledger", .serialized,
        arguments: BundledImplementations.queues, ContractCatalog.writeQueue.map(\.id))
    func honoursLedger(_ queue: ImplementationUnderCheck, _ contract: ContractID) async {
        let entry = await queue.matrixEntry(for: contract)
        #expect(entry.matchesLedger, "\(entry.mismatch ?? "")\n\n\(entry.report.fullText)")
        if entry.expected == .fail {
            let kinds = Set(entry.report.outcome.violations.map(\.kind))
            #expect(kinds == [.contract], "an expected failure must be the contract's, not \(kinds)")
        }
    }
}
