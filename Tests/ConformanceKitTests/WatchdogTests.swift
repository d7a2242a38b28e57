import Foundation
import ConformanceTesting
import Testing

@Suite struct WatchdogTests {
    @Test func aHungAdapterBecomesANamedFailure() async throws {
        let contract = try #require(PagerContract.contract("P1"))
        let report = await contract.run(
            against: HangingPagerAdapter.self, options: RunOptions(watchdog: .seconds(2)))
        HangingPagerAdapter.release.signal()
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .watchdog)
        #expect(violation.summary.contains("the pager to handle \"bottom reached\""))
    }

    @Test func aTimelineThatFinishesIsNotInterrupted() async throws {
        let value = try await withWatchdog(limit: .seconds(30), waitingFor: { "nothing" }) { 42 }
        #expect(value == 42)
    }

    @Test func anAsyncHangIsCancelledAndNamed() async {
        let descriptor = ContractCatalog.descriptor("P1")!
        let report = await ContractRun.execute(descriptor, subject: "Hung", watchdog: .seconds(2)) {
            recorder in
            recorder.setWaiting(for: "request #1 to park at the page source")
            await waitUntilCancelled()
        }
        #expect(report.outcome.violations.map(\.kind) == [.watchdog])
        #expect(report.outcome.violations.first?.summary.contains("request #1 to park") == true)
    }
}

/// Suspends until the current task is cancelled (the watchdog cancels it), without sleeping.
private func waitUntilCancelled() async {
    let gate = CancellationGate()
    await withTaskCancellationHandler {
        await withCheckedContinuation { gate.install($0) }
    } onCancel: {
        gate.open()
    }
}

private final class CancellationGate: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var opened = false

    func install(_ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        if opened {
            lock.unlock()
            continuation.resume()
        } else {
            self.continuation = continuation
            lock.unlock()
        }
    }

    func open() {
        lock.lock()
        opened = true
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume()
    }
}
