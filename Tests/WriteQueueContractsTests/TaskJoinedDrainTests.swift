import Testing
import WriteQueueContracts

/// A queue whose pass awaits a sync it started in an unstructured `Task`, racing each request
/// against its timeout on the injected clock (the eighth outside round's second reachability
/// outbox): correct, so every contract passes, on every run.
@Suite("A sync in an awaited unstructured Task, racing a timeout on the clock", .serialized)
struct TaskJoinedDrainTests {
    @Test(arguments: WriteQueueContract.all(for: TaskJoinedReachabilityAdapter.self))
    func everyContractPasses(_ contract: WriteQueueContract) async {
        for _ in 0..<3 {
            let report = await contract.run(against: TaskJoinedReachabilityAdapter.self)
            #expect(report.outcome == .passed || report.outcome.word == "skipped", "\(report.fullText)")
        }
    }
}
