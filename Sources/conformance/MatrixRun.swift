import BundledImplementations
import ConformanceKit
import Foundation

/// One run of the conformance matrix and how to print it.
struct MatrixRun {
    let implementations: [ImplementationUnderCheck]
    let entries: [MatrixEntry]
    let ledgerErrors: [String]
    let uncaughtContracts: [ContractID]
    let seconds: Double

    /// Runs every selected implementation against every selected contract.
    static func execute(_ options: CommandOptions) async -> MatrixRun {
        let start = ContinuousClock.now
        let implementations = BundledImplementations.all.filter { implementation in
            options.implementationFilter.map { implementation.name.contains($0) } ?? true
        }
        let cells = implementations.flatMap { implementation in
            implementation.contracts
                .filter { options.contractFilter.isEmpty || options.contractFilter.contains($0.id.rawValue) }
                .map { (implementation, $0.id) }
        }
        let entries = await withTaskGroup(of: (Int, MatrixEntry).self) { group in
            for (index, cell) in cells.enumerated() {
                group.addTask { (index, await cell.0.matrixEntry(for: cell.1)) }
            }
            var results: [(Int, MatrixEntry)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        let ledgerErrors = implementations.flatMap { implementation in
            implementation.unknownLedgerEntries.map {
                "\(implementation.name): the ledger names \($0.contract), which is not a contract of its family"
            }
        }
        let wholeRun = options.implementationFilter == nil && options.contractFilter.isEmpty
        let caught = Set(entries.filter { $0.kind == .mutant && ["failed", "warning"].contains($0.report.outcome.word) }.map(\.report.contract.id))
        let families = Set(implementations.flatMap(\.contracts))
        let uncaught = wholeRun ? families.map(\.id).filter { !caught.contains($0) }.sorted() : []
        let elapsed = start.duration(to: .now)
        return MatrixRun(
            implementations: implementations, entries: entries, ledgerErrors: ledgerErrors,
            uncaughtContracts: uncaught,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// `true` when every cell matches its ledger, every ledger is valid and every contract is
    /// caught by a mutant.
    var succeeded: Bool {
        entries.allSatisfy(\.matchesLedger) && ledgerErrors.isEmpty && uncaughtContracts.isEmpty
    }
}
