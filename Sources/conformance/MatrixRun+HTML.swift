import ConformanceKit
import HTMLReport

extension MatrixRun {
    /// The run as a report page's document: one table per contract family, every cell with its
    /// full report and ledger expectation, and the run's verdict in the notes.
    func reportDocument() -> ReportDocument {
        let byFamily = Dictionary(grouping: implementations) { $0.contracts.first?.id.family ?? "?" }
        let groups = byFamily.keys.sorted().map { family -> ReportGroup in
            let implementations = byFamily[family] ?? []
            let contracts = implementations.first?.contracts ?? []
            let rows = implementations.map { implementation in
                ReportRow(
                    name: implementation.name, kind: implementation.kind.rawValue,
                    level: implementation.level.rawValue,
                    note: implementation.summary,
                    cells: entries.filter { $0.implementation == implementation.name }.map { entry in
                        cell(for: entry, ledger: implementation.ledger)
                    })
            }
            return ReportGroup(
                family: ReportColumn.family(of: String(family)), columns: contracts.map(ReportColumn.init),
                rows: rows)
        }
        var notes: [String] = [
            succeeded ? "conformance: OK — every cell matches its ledger" : "conformance: FAILED"
        ]
        notes += entries.compactMap(\.mismatch)
        notes += ledgerErrors.map { "ledger error: \($0)" }
        if !uncaughtContracts.isEmpty {
            notes.append(
                "contracts no mutant fails: " + uncaughtContracts.map(\.rawValue).joined(separator: ", "))
        }
        return ReportDocument(
            title: "Conformance matrix",
            source: "swift run conformance — every bundled implementation × every contract",
            runSeconds: seconds, notes: notes, groups: groups)
    }

    private func cell(for entry: MatrixEntry, ledger: Ledger) -> ReportCell {
        let base = ReportCell(
            report: entry.report, verdict: ReportVerdict(entry: entry), expected: entry.expected.rawValue)
        var sections: [ReportSection] = []
        if let mismatch = entry.mismatch {
            sections.append(ReportSection("Mismatch with the ledger", mismatch))
        }
        if let listed = ledger.entries.first(where: { $0.contract == entry.report.contract.id }) {
            sections.append(ReportSection("Ledger", "fails \(listed.contract) because \(listed.reason)"))
        }
        // An outcome the page knows no details of (such as `blocked`) still shows the matrix's
        // one-line message.
        return ReportCell(
            column: base.column, verdict: base.verdict, expected: base.expected,
            headline: base.headline.isEmpty ? entry.message : base.headline,
            sections: sections + base.sections)
    }
}
