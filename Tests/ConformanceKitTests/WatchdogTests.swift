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

    /// A trigger suspended on a continuation its completion handler resumes shows the kit
    /// nothing; the watchdog names that as the likely cause, and the seam to inject instead.
    @Test func aContinuationBridgeIsNamedInTheWatchdogMessage() async throws {
        let contract = try #require(PagerContract.contract("P1"))
        let report = await contract.run(
            against: ContinuationBridgedPagerAdapter.self, options: RunOptions(watchdog: Self.limit))
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .watchdog)
        #expect(violation.summary.contains(
            "its work made request #1 through a completion handler and waits; if it awaits a continuation"))
        #expect(violation.summary.contains("\"A continuation bridge\" in Docs/Pagers.md"))
    }

    @Test func aTimelineThatFinishesIsNotInterrupted() async throws {
        let value = try await withWatchdog(limit: .seconds(30), waitingFor: { "nothing" }) { 42 }
        #expect(value == 42)
    }

    /// A watchdog lets go of what it watched when the operation ends, not at its deadline: its
    /// timer held the closures describing the wait, and through them a whole explored schedule
    /// (subject, scheduler, transcript) for 30 s, so a search kept thousands in memory.
    @Test func aFinishedWatchdogLetsGoOfWhatItWatched() async throws {
        weak var watched: WatchedSchedule?
        do {
            let schedule = WatchedSchedule()
            watched = schedule
            #expect(try await Self.watch(schedule) == 42)
        }
        #expect(watched == nil, "the watchdog still holds the schedule it watched, after the operation ended")
    }

    private final class WatchedSchedule: Sendable {}

    /// Watches an operation that ends at once, with a wait description and a progress count
    /// that hold `schedule` (the operation's own task may still be unwinding when this returns,
    /// so it holds nothing).
    private static func watch(_ schedule: WatchedSchedule) async throws -> Int {
        try await withWatchdog(
            limit: .seconds(600), waitingFor: { "\(ObjectIdentifier(schedule))" },
            progress: { withExtendedLifetime(schedule) { 0 } }
        ) { 42 }
    }

    /// A timeline that keeps moving runs past the limit: the watchdog reads progress every
    /// quarter of it (here the reads themselves let the body finish, on the sixth, past one
    /// and a quarter limits). The limit leaves the body's task more than six limits to run once
    /// the gate opens, however loaded the machine: 20 ms did not, in a whole suite, nor did
    /// 400 ms (2.6 s) when the suite shared two cores with a release build; 2 s leaves 13 s.
    @Test func aTimelineThatKeepsMovingRunsPastTheLimit() async throws {
        let gate = CancellationGate()
        let reads = Locked(rawValue: 0)
        let value = try await withWatchdog(
            limit: .seconds(2), waitingFor: { "the body" },
            progress: {
                let read = reads.withLock { $0 += 1; return $0 }
                if read == 6 { gate.open() }
                return read
            }
        ) {
            await withCheckedContinuation { gate.install($0) }
            return 42
        }
        #expect(value == 42)
        #expect(reads.withLock { $0 } >= 6)
    }

    /// Once the timeline stops moving, four quarters of the limit later the watchdog fires, and
    /// says that nothing moved (not that the whole timeline took too long): reads 1 (armed),
    /// 2 (moved), then 2, 2, 2, 2.
    @Test func aTimelineThatStopsMovingIsNamedAsStalled() async {
        let reads = Locked(rawValue: 0)
        do {
            _ = try await withWatchdog(
                limit: .milliseconds(20), waitingFor: { "request #2 to park" },
                progress: { min(reads.withLock { $0 += 1; return $0 }, 2) }
            ) {
                await waitUntilCancelled()
            }
            Issue.record("Expected the watchdog to fire")
        } catch let timeout as WatchdogTimeout {
            #expect(timeout.kind == .stalled)
            #expect(timeout.description.contains("nothing moved for that long while the kit waited for request #2 to park"))
            #expect(reads.withLock { $0 } == 6)
        } catch {
            Issue.record("Expected a WatchdogTimeout, got \(error)")
        }
    }

    /// A timeline that never stops moving is still named, after eight limits, as such.
    @Test func aTimelineThatNeverEndsIsNamedAfterEightLimits() async {
        let reads = Locked(rawValue: 0)
        do {
            _ = try await withWatchdog(
                limit: .milliseconds(20), waitingFor: { "the loop to end" },
                progress: { reads.withLock { $0 += 1; return $0 } }
            ) {
                await waitUntilCancelled()
            }
            Issue.record("Expected the watchdog to fire")
        } catch let timeout as WatchdogTimeout {
            #expect(timeout.kind == .endless(limits: 8))
            #expect(timeout.description.contains("within 8 watchdog limits"))
            #expect(reads.withLock { $0 } == 1 + 33)
        } catch {
            Issue.record("Expected a WatchdogTimeout, got \(error)")
        }
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
