import BundledImplementations
import ConformanceKit
import Testing
import WriteQueueContracts

@Suite("Queue ledgers")
struct QueueLedgerTests {
    let queues = BundledImplementations.queues
    let catalogue = Set(ContractCatalog.writeQueue.map(\.id))

    @Test("Every ledger names only Q contracts that exist")
    func ledgersNameKnownContracts() {
        for queue in queues {
            #expect(queue.unknownLedgerEntries.isEmpty, "\(queue.name): \(queue.unknownLedgerEntries)")
            #expect(queue.ledger.contracts.isSubset(of: catalogue), "\(queue.name)")
            #expect(queue.level == .queue)
        }
    }

    @Test("References and adopters expect to pass everything; every mutant expects a failure")
    func ledgersMatchKinds() {
        for queue in queues {
            switch queue.kind {
            case .reference, .adopter: #expect(queue.ledger.entries.isEmpty, "\(queue.name)")
            case .mutant: #expect(!queue.ledger.entries.isEmpty, "\(queue.name)")
            }
        }
    }

    @Test("Every Q contract is failed by at least one mutant", arguments: ContractCatalog.writeQueue.map(\.id))
    func everyContractBites(_ contract: ContractID) {
        let catchers = queues.filter { $0.kind == .mutant && $0.ledger.contracts.contains(contract) }
        #expect(!catchers.isEmpty, "no mutant is listed as failing \(contract)")
    }

    @Test("Names are unique and the reference, the adopter and the mutants are all registered")
    func registry() {
        #expect(Set(queues.map(\.name)).count == queues.count)
        #expect(queues.contains { $0.kind == .reference })
        #expect(queues.contains { $0.kind == .adopter })
        #expect(queues.filter { $0.kind == .mutant }.count >= 12)
        #expect(BundledImplementations.all.filter { $0.level == .queue }.count == queues.count)
    }
}
