import Foundation
import ConformanceKit
import ConformanceTesting
import Testing

@Suite struct WatchdogTests {
    /// Long enough for the body to get a thread of the cooperative pool on a loaded machine
    /// (under the thread sanitizer, parallel suites kept both threads busy past 2 s, and the
    /// watchdog then rightly said it was still waiting for the timeline to start).
    static let limit: Duration = .seconds(10)

    @Test func aHungAdapterBecomesANamedFailure() async throws {
        let contract = try #require(PagerContract.contract("P1"))
        let report = await contract.run(
            against: HangingPagerAdapter.self, options: RunOptions(watchdog: Self.limit))
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
        let report = await ContractRun.execute(descriptor, subject: "Hung", watchdog: Self.limit) {
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

private final class CancellationGate: Sendable {
    private let state = Locked<(opened: Bool, continuation: CheckedContinuation<Void, Never>?)>(
        rawValue: (false, nil))

    func install(_ continuation: CheckedContinuation<Void, Never>) {
        let opened = state.withLock { state in
            if !state.opened { state.continuation = continuation }
            return state.opened
        }
        if opened { continuation.resume() }
    }

    func open() {
        let continuation = state.withLock { state in
            state.opened = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
