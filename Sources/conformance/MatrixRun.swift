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

    /// Runs every selected implementation against every selected contract, in this process.
    ///
    /// - Parameters:
    ///   - options: The command line's selection.
    ///   - worker: What the supervising process asks of this one (see ``MatrixWorkerPlan``);
    ///     `nil` when there is no supervisor, so implementations that trap are left out.
    static func execute(_ options: CommandOptions, worker: MatrixWorkerPlan? = nil) async -> MatrixRun {
        let start = ContinuousClock.now
        let implementations = selectedImplementations(options, worker: worker)
        let entries = await run(cells(options, worker: worker), worker: worker)
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

    /// The implementations the options select: every bundled one, and those that trap when a
    /// supervisor contains them.
    static func selectedImplementations(_ options: CommandOptions, worker: MatrixWorkerPlan?)
        -> [ImplementationUnderCheck]
    {
        let bundled = BundledImplementations.all + (worker == nil ? [] : BundledImplementations.trapping)
        return ImplementationNameFilter(text: options.implementationFilter).select(bundled, name: \.name)
    }

    /// The cells the options select, in matrix order.
    static func cells(_ options: CommandOptions, worker: MatrixWorkerPlan?) -> [MatrixCell] {
        selectedImplementations(options, worker: worker).flatMap { implementation in
            implementation.contracts
                .filter { options.contractFilter.isEmpty || options.contractFilter.contains($0.id.rawValue) }
                .map { MatrixCell(implementation: implementation, contract: $0.id) }
        }
    }

    /// The cells' entries in cell order: all at once, or one after another when the supervisor
    /// is finding which cell crashed. A cell the supervisor already knows crashes is not run
    /// again: its entry says how it crashed.
    private static func run(_ cells: [MatrixCell], worker: MatrixWorkerPlan?) async -> [MatrixEntry] {
        let crashes = Dictionary((worker?.crashedCells ?? []).map { ($0.cell, $0) }) { first, _ in first }
        let selected = cells.filter { cell in worker?.onlyCells.map { $0.contains(cell.key) } ?? true }
        func entry(for cell: MatrixCell) async -> MatrixEntry {
            if let crash = crashes[cell.key] { return crash.entry(for: cell.implementation) }
            worker?.announce(.start, cell)
            let entry = await cell.implementation.matrixEntry(for: cell.contract)
            worker?.announce(.end, cell)
            return entry
        }
        if worker?.serial == true {
            var entries: [MatrixEntry] = []
            for cell in selected { entries.append(await entry(for: cell)) }
            return entries
        }
        // A window of cells at a time, not all at once: the cells a crash interrupts (the ones
        // the supervisor must rerun to find the trap) are at most this many.
        let window = 4 * ProcessInfo.processInfo.activeProcessorCount
        // The implementations known to trap go first: when one traps, the supervisor reruns the
        // whole matrix with that cell reported as crashed, so the work its worker did before
        // the trap is lost. Last in matrix order, they trapped when nearly the whole matrix was
        // done, and every run did it twice.
        let trapping = Set(BundledImplementations.trapping.map(\.name))
        let order = selected.enumerated().filter { trapping.contains($0.element.implementation.name) }
            + selected.enumerated().filter { !trapping.contains($0.element.implementation.name) }
        return await withTaskGroup(of: (Int, MatrixEntry).self) { group in
            var pending = order.makeIterator()
            for _ in 0..<window {
                guard let (index, cell) = pending.next() else { break }
                group.addTask { (index, await entry(for: cell)) }
            }
            var results: [(Int, MatrixEntry)] = []
            for await result in group {
                results.append(result)
                if let (index, cell) = pending.next() { group.addTask { (index, await entry(for: cell)) } }
            }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// `true` when every cell matches its ledger, every ledger is valid and every contract is
    /// caught by a mutant.
    var succeeded: Bool {
        entries.allSatisfy(\.matchesLedger) && ledgerErrors.isEmpty && uncaughtContracts.isEmpty
    }
}

/// One cell of the matrix to run: an implementation and one contract of its family.
struct MatrixCell: Sendable {
    let implementation: ImplementationUnderCheck
    let contract: ContractID

    /// How the supervisor and the worker name the cell to each other.
    var key: MatrixCellKey { MatrixCellKey(implementation: implementation.name, contract: contract.rawValue) }
}
