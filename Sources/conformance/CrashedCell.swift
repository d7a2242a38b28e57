import ConformanceKit
import Foundation

/// A cell whose run killed the process, and what the supervisor saw of it.
struct CrashedCell: Codable, Sendable {
    let cell: MatrixCellKey
    /// The signal that ended the process (SIGILL or SIGTRAP for a Swift trap).
    let signal: Int32
    /// The steps the cell recorded before the process died.
    let steps: [String]
    /// What else the process wrote after the cell started, such as "Fatal error: …" (a few lines).
    let output: [String]
    /// Whether it crashed when run alone (`false`: only beside other cells, so which of them
    /// trapped is not known).
    let alone: Bool

    /// The matrix entry that reports the crash as the cell's failure.
    func entry(for implementation: ImplementationUnderCheck) -> MatrixEntry {
        let contract = ContractID(cell.contract)
        let descriptor =
            ContractCatalog.descriptor(contract)
            ?? ContractDescriptor(id: contract, name: cell.contract, rule: "")
        var transcript = Transcript()
        for step in steps { transcript.record(step) }
        let signalName = Self.name(of: signal)
        let lastStep = steps.last.map { "after step \(steps.count) (\($0.split(separator: "\n").first ?? ""))" }
            ?? "before its first step"
        let violation = Violation(
            kind: .crash, tier: descriptor.tier,
            summary: alone
                ? "The implementation crashed with signal \(signal) (\(signalName)) while this contract checked it."
                : "The process crashed with signal \(signal) (\(signalName)) while this cell ran beside others; "
                    + "it does not crash alone, so the trap may belong to another cell.",
            expected: "the timeline runs to its end",
            actual: "the process died \(lastStep)"
                + (output.isEmpty ? "" : ", saying:\n" + output.map { "    \($0)" }.joined(separator: "\n")),
            hint: "A trap in the code under check, such as Dictionary(uniqueKeysWithValues:) on a repeated key, "
                + "a force-unwrap of nil or an index out of range. Run the cell under a debugger to see the "
                + "trapping line: `swift test --filter` on a test that runs \(cell.contract) against it.",
            step: steps.isEmpty ? nil : steps.count)
        return MatrixEntry(
            implementation: implementation.name, kind: implementation.kind, level: implementation.level,
            report: ContractReport(
                contract: descriptor, subject: implementation.name, outcome: .failed([violation]),
                transcript: transcript),
            expected: implementation.expectation(for: contract), expectedBlocker: implementation.ledger.blocker(for: contract))
    }

    /// `SIGILL`, `SIGTRAP`, …: the signal's name, or `signal N`.
    static func name(of signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
            SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
