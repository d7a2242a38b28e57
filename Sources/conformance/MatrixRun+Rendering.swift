import ConformanceKit
import Foundation

extension MatrixRun {
    /// The matrix as text: one table per contract family, then mismatches and a summary.
    func rendered(verbose: Bool) -> String {
        var lines: [String] = []
        let byFamily = Dictionary(grouping: implementations) { $0.contracts.first?.id.family ?? "?" }
        for family in byFamily.keys.sorted() {
            let rows = byFamily[family] ?? []
            let columns = rows.first?.contracts.map(\.id) ?? []
            let nameWidth = max(28, rows.map { $0.name.count + 2 }.max() ?? 0)
            let header = pad("implementation", nameWidth) + pad("kind", 10) + pad("level", 7)
                + columns.map { pad($0.rawValue, 6) }.joined()
            lines.append(header)
            lines.append(String(repeating: "-", count: header.count))
            for implementation in rows {
                let cells = columns.map { id in
                    entries.first { $0.implementation == implementation.name && $0.report.contract.id == id }
                        .map { pad(Self.symbol(for: $0), 6) } ?? pad("", 6)
                }
                lines.append(
                    pad(implementation.name, nameWidth) + pad(implementation.kind.rawValue, 10)
                        + pad(implementation.level.rawValue, 7) + cells.joined())
            }
            lines.append("")
        }
        lines.append(
            "legend: pass = passed; xfail = failed as its ledger expects; n/a = not applicable "
                + "(skipped, with reason in --json); FAIL = unexpected failure; XPASS = expected to "
                + "fail but passed (lost its teeth); warn = failed a recommended rule; blk = blocked by "
                + "another rule its ledger lists (not judged); BLK = blocked unexpectedly")
        let mismatches = entries.compactMap(\.mismatch)
        if !mismatches.isEmpty {
            lines.append("\nMismatches with the ledgers:")
            for entry in entries where !entry.matchesLedger {
                lines.append("  - \(entry.mismatch ?? "")")
                for message in entry.report.messages {
                    lines.append(indent(message))
                }
            }
        }
        if verbose {
            lines.append("\nEvery failure, in full:")
            for entry in entries {
                for message in entry.report.messages {
                    lines.append(indent(message))
                }
            }
        }
        for error in ledgerErrors { lines.append("ledger error: \(error)") }
        if !uncaughtContracts.isEmpty {
            lines.append(
                "contracts no mutant fails (the suite cannot show they bite): "
                    + uncaughtContracts.map(\.rawValue).joined(separator: ", "))
        }
        let count = { (word: String) in entries.filter { $0.report.outcome.word == word }.count }
        lines.append(
            "\n\(implementations.count) implementations, \(entries.count) checks: "
                + "\(count("passed")) passed, \(count("failed") + count("warning")) failed "
                + "(\(entries.filter { $0.expected == .fail && $0.matchesLedger }.count) as expected), "
                + "\(count("blocked")) blocked "
                + "(\(entries.filter { $0.expected == .blocked && $0.matchesLedger }.count) as expected), "
                + "\(count("skipped")) not applicable; \(mismatches.count) mismatches; "
                + String(format: "%.2f s", seconds))
        lines.append(succeeded ? "conformance: OK" : "conformance: FAILED")
        return lines.joined(separator: "\n")
    }

    /// The cells as a JSON array.
    func json() -> String {
        struct Row: Encodable {
            let implementation, kind, level, contract, name, tier, outcome, expected, message: String
            let blockedBy: String?
            let matchesLedger: Bool
        }
        let rows = entries.map { entry in
            Row(
                implementation: entry.implementation, kind: entry.kind.rawValue,
                level: entry.level.rawValue, contract: entry.report.contract.id.rawValue,
                name: entry.report.contract.name, tier: entry.report.contract.tier.rawValue,
                outcome: entry.report.outcome.word, expected: entry.expected.rawValue,
                message: entry.message, blockedBy: entry.report.outcome.blockedBy?.rawValue,
                matchesLedger: entry.matchesLedger)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(rows)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
    }

    static func symbol(for entry: MatrixEntry) -> String {
        switch (entry.report.outcome, entry.expected) {
        case (.passed, .fail): "XPASS"
        case (.passed, _): "pass"
        case (.notApplicable, _): "n/a"
        case (.blocked, _): entry.matchesLedger ? "blk" : "BLK"
        case (.failed, .fail): "xfail"
        case (.failed, _):
            entry.report.hasErrors(strict: false) ? "FAIL" : "warn"
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "      \($0)" }
            .joined(separator: "\n")
    }
}
