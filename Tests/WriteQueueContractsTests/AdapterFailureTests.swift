import ConformanceKit
import Foundation
import Testing
import WriteQueueContracts

/// An adapter that throws, fires and forgets, or hangs gets a named failure, never a crash or a
/// hung run.
@Suite("Adapter failures")
struct AdapterFailureTests {
    @Test("A submit that throws is an adapter error")
    func throwingSubmit() async throws {
        let report = try await run("Q6", ThrowingSubmitAdapter.self)
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .adapterError)
        #expect(violation.summary.contains("submit op-1"))
    }

    @Test("A pass that never returns nor parks trips the watchdog, naming what the kit waited for")
    func hangingPass() async throws {
        let report = try await run("Q6", HangingPassAdapter.self, watchdog: .seconds(1))
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .watchdog)
        // The finding names what the kit was waiting for (normally the drive after pass #1;
        // on a loaded machine the limit may pass during an earlier step).
        #expect(violation.summary.contains("while the kit waited for "))
    }

    @Test("Contracts an adapter cannot support are not applicable, never passed")
    func notApplicable() async throws {
        let report = try await run("Q10", MinimalCapabilitiesAdapter.self)
        #expect(report.outcome.word == "skipped")
    }

    private func run<A: WriteQueueAdapter>(
        _ id: ContractID, _ adapter: A.Type, watchdog: Duration = .seconds(10)
    ) async throws -> ContractReport {
        let contract = try #require(WriteQueueContract.contract(id))
        return await contract.run(against: adapter, options: RunOptions(watchdog: watchdog))
    }
}
