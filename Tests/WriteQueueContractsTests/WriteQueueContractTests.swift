import BundledImplementations
import ConformanceKit
import ConformanceTesting
import Testing

@Suite("WriteQueueContract")
struct WriteQueueContractTests {
    @Test("Q1 to Q12, in catalogue order, equal and hashed by ID")
    func catalogue() {
        #expect(WriteQueueContract.all.map(\.id.rawValue) == (1...12).map { "Q\($0)" })
        #expect(Set(WriteQueueContract.all).count == 12)
        #expect(WriteQueueContract.contract("Q3") == WriteQueueContract.all[2])
        #expect(WriteQueueContract.contract("P3") == nil)
        #expect(WriteQueueContract.contract("Q11")?.descriptor.tier == .recommended)
        #expect(WriteQueueContract.contract("Q12")?.descriptor.tier == .recommended)
    }

    @Test("A test case is named by ID and name")
    func testDescription() {
        #expect(WriteQueueContract.contract("Q3")?.testDescription == "Q3 replay after crash")
    }

    @Test("Contracts an adapter cannot express are listed, marked with the reason")
    func applicability() async throws {
        #expect(WriteQueueContract.all(for: FileWriteQueueAdapter.self).allSatisfy { $0.applicability?.isApplicable == true })
        let bare = WriteQueueContract.all(for: MinimalCapabilitiesAdapter.self)
        #expect(bare.count == 12)
        let skipped = bare.filter { $0.applicability?.isApplicable == false }
        #expect(skipped.map(\.id) == ["Q8", "Q10"])
        let q8 = try #require(skipped.first)
        let reason = try #require(q8.applicability?.reason)
        let report = await q8.run(against: MinimalCapabilitiesAdapter.self)
        #expect(report.outcome == .notApplicable(reason: reason))
        #expect(q8.testDescription == "\(q8.descriptor.title) (not applicable: \(reason))")
    }

    @Test("Recommended contracts report recommended-tier violations")
    func recommendedTier() async throws {
        let q12 = try #require(WriteQueueContract.contract("Q12"))
        let report = await q12.run(against: CoalescingQueueThatSendsOlderBody.self)
        #expect(!report.outcome.violations.isEmpty)
        #expect(report.outcome.violations.allSatisfy { $0.tier == .recommended && $0.kind == .contract })
        #expect(!report.hasErrors(strict: false))
        #expect(report.hasErrors(strict: true))
        let q2 = try #require(WriteQueueContract.contract("Q2"))
        let required = await q2.run(against: QueueThatDeletesTaskOn503.self)
        #expect(!required.outcome.violations.isEmpty)
        #expect(required.outcome.violations.allSatisfy { $0.tier == .required })
    }

    @Test("Violations read as bug reports: Expected …, but …, with operands and a hint")
    func violationShape() async throws {
        for queue in BundledImplementations.queues where queue.kind == .mutant {
            for contract in queue.ledger.contracts {
                let report = await queue.run(contract)
                for violation in report.outcome.violations {
                    #expect(violation.summary.hasPrefix("Expected "), "\(queue.name) \(contract)")
                    #expect(violation.summary.contains(", but "), "\(queue.name) \(contract)")
                    #expect(violation.hint != nil, "\(queue.name) \(contract)")
                    #expect(report.message(for: violation).contains("Timeline (up to the failing step)"))
                }
            }
        }
    }

    @Test("check(_:) passes the reference through Swift Testing", arguments: WriteQueueContract.all(for: FileWriteQueueAdapter.self))
    func checkReference(_ contract: WriteQueueContract) async {
        await contract.check(FileWriteQueueAdapter.self)
    }

    @Test("check(_:) passes the adopter through Swift Testing", arguments: WriteQueueContract.all(for: TicketOutboxAdapter.self))
    func checkAdopter(_ contract: WriteQueueContract) async {
        await contract.check(TicketOutboxAdapter.self)
    }

    @Test("Checking a contract that does not apply records a warning, which does not fail the run",
        arguments: WriteQueueContract.all(for: MinimalCapabilitiesAdapter.self).filter { $0.applicability?.isApplicable == false })
    func skippedAreWarnings(_ contract: WriteQueueContract) async {
        await contract.check(MinimalCapabilitiesAdapter.self)
    }

    @Test("check(_:) records the mutant's failure as an issue at the caller's line")
    func checkRecordsIssues() async throws {
        let q7 = try #require(WriteQueueContract.contract("Q7"))
        await withKnownIssue {
            await q7.check(QueueWithoutSendLease.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Q7 single sender: Expected at most one request") }
        }
        let q11 = try #require(WriteQueueContract.contract("Q11"))
        await withKnownIssue {
            await q11.check(QueueThatOverwritesRestoredTasks.self, options: RunOptions(strict: true))
        }
    }
}
