import BundledImplementations
import ConformanceTesting
import Testing

/// One bundled implementation against one contract of its family.
struct BundledCase: Sendable, CustomTestStringConvertible {
    let implementation: ImplementationUnderCheck
    let contract: ContractDescriptor

    /// `SeedPager · P4 late stale response`, or `… (not applicable: reason)` as a team's own
    /// `PagerContract.all(for:)` names it, so `conformance report` shows the same cells.
    var testDescription: String {
        let title = "\(implementation.name) · \(contract.title)"
        guard let reason = implementation.applicability(of: contract.id).reason else { return title }
        return "\(title) (not applicable: \(reason))"
    }

    static let all: [BundledCase] = BundledImplementations.all.flatMap { implementation in
        implementation.contracts.map { BundledCase(implementation: implementation, contract: $0) }
    }
}

/// Every implementation under `Conformance/` against every contract, honouring its ledger:
/// listed failures are known issues, an unexpected pass is a failure.
///
/// One cell at a time: each contract's watchdog measures wall time, and 1,000-odd cells started
/// together on a loaded 2-core machine left the longest timelines (Q8: dozens of passes, each
/// suspending behind a thousand other cells) waiting past the 30 s watchdog although each needs
/// well under a second alone (seen with other CPU-heavy work beside the run).
@Test(.serialized, arguments: BundledCase.all)
func bundledImplementationHonoursItsLedger(_ bundled: BundledCase) async {
    await bundled.implementation.check(bundled.contract.id)
}

@Suite struct BundledSuiteTests {
    @Test func everyContractIsFailedByAtLeastOneMutant() async {
        var caught: Set<ContractID> = []
        var families: Set<ContractID> = []
        for implementation in BundledImplementations.all {
            families.formUnion(implementation.contracts.map(\.id))
            guard implementation.kind == .mutant else { continue }
            for contract in implementation.contracts {
                let report = await implementation.run(contract.id)
                if case .failed = report.outcome { caught.insert(contract.id) }
            }
        }
        #expect(families.subtracting(caught).sorted() == [], "contracts no mutant fails")
    }

    @Test(arguments: BundledImplementations.all.map(\.name))
    func ledgersNameOnlyContractsOfTheirFamily(_ name: String) throws {
        let implementation = try #require(BundledImplementations.all.first { $0.name == name })
        #expect(implementation.unknownLedgerEntries.map(\.contract) == [])
    }

    @Test func referencesAndAdoptersAreExpectedToPassEverything() {
        for implementation in BundledImplementations.all where implementation.kind != .mutant {
            #expect(implementation.ledger.entries.isEmpty, "\(implementation.name) lists failures")
        }
    }

    @Test func everyMutantBreaksSomething() {
        for implementation in BundledImplementations.all where implementation.kind == .mutant {
            #expect(!implementation.ledger.entries.isEmpty, "\(implementation.name) has an empty ledger")
        }
    }
}
