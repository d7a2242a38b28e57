import ConformanceKit
import Testing

@Suite struct LedgerTests {
    let ledger: Ledger = [.fails("P4", because: "no generation"), .fails("P99", because: "typo")]

    @Test func findsEntriesNamingUnknownContracts() {
        #expect(ledger.unknownEntries().map(\.contract) == ["P99"])
        #expect(ledger.unknownEntries(in: ContractCatalog.writeQueue).map(\.contract) == ["P4", "P99"])
    }

    @Test func expectsFailurePassOrSkip() {
        #expect(ledger.expectation(for: "P4", applicability: .applicable) == .fail)
        #expect(ledger.expectation(for: "P1", applicability: .applicable) == .pass)
        #expect(ledger.expectation(for: "P9", applicability: .notApplicable(reason: "no cursors")) == .skip)
    }

    @Test func anUnexpectedPassSaysTheContractLostItsTeeth() {
        let descriptor = ContractCatalog.descriptor("P4")!
        let entry = MatrixEntry(
            implementation: "PagerThatIgnoresGeneration", kind: .mutant, level: .model,
            report: ContractReport(contract: descriptor, subject: "X", outcome: .passed),
            expected: .fail)
        #expect(!entry.matchesLedger)
        #expect(entry.mismatch?.contains("lost its teeth") == true)
    }

    @Test func anAdapterErrorNeverStandsForAListedBug() {
        let descriptor = ContractCatalog.descriptor("Q8")!
        let entry = { (kind: Violation.Kind) in
            MatrixEntry(
                implementation: "UncappedTimerOutbox", kind: .mutant, level: .queue,
                report: ContractReport(
                    contract: descriptor, subject: "X",
                    outcome: .failed([Violation(kind: kind, summary: "Expected …, but …", hint: "…")])),
                expected: .fail)
        }
        #expect(!entry(.adapterError).matchesLedger)
        #expect(entry(.adapterError).mismatch?.contains("the listed bug was not seen") == true)
        #expect(entry(.contract).matchesLedger)
    }

    @Test func theCatalogueHasEveryID() {
        #expect(ContractCatalog.pager.map(\.id.rawValue) == (1...13).map { "P\($0)" })
        #expect(ContractCatalog.writeQueue.map(\.id.rawValue) == (1...12).map { "Q\($0)" })
        #expect(ContractCatalog.server.map(\.id.rawValue) == (1...5).map { "S\($0)" })
        #expect(ContractCatalog.invariants.map(\.id.rawValue) == (1...9).map { "I\($0)" })
        let recommended = ContractCatalog.all.filter { $0.tier == .recommended }.map(\.id.rawValue)
        #expect(recommended == ["P12", "P13", "Q11", "Q12"])
    }
}
