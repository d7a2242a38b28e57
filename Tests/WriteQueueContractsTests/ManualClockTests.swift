import ConformanceKit
import Testing
import WriteQueueContracts

@Suite("ManualClock")
struct ManualClockTests {
    @Test("A wait ends only when the clock reaches its deadline")
    func waitEndsAtDeadline() async throws {
        let clock = ManualClock()
        let deadline = clock.now.advanced(by: .seconds(2))
        let waiter = Task { try await clock.wait(until: deadline) }
        await clock.waitUntilPending(count: 1)
        clock.advance(by: .seconds(1))
        #expect(clock.pendingDeadlines == [deadline])
        clock.advance(by: .seconds(1))
        try await waiter.value
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
    }

    @Test("A deadline already reached returns at once")
    func pastDeadlineReturns() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(5)))
        try await clock.wait(until: ManualClock.Instant(offset: .seconds(3)))
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("Cancelling a waiting task ends its wait with CancellationError")
    func cancellationEndsWait() async {
        let clock = ManualClock()
        let waiter = Task { try await clock.wait(until: clock.now.advanced(by: .seconds(60))) }
        await clock.waitUntilPending(count: 1)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("Advancing resumes due waits earliest first and never moves backwards")
    func advanceOrder() async throws {
        let clock = ManualClock()
        let order = Locked(rawValue: [Int]())
        let late = Task {
            try await clock.wait(until: ManualClock.Instant(offset: .seconds(3)))
            order.withLock { $0.append(3) }
        }
        await clock.waitUntilPending(count: 1)
        let early = Task {
            try await clock.wait(until: ManualClock.Instant(offset: .seconds(1)))
            order.withLock { $0.append(1) }
        }
        await clock.waitUntilPending(count: 2)
        #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(1), .seconds(3)])
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        try await early.value
        clock.advance(to: ManualClock.Instant(offset: .zero))
        #expect(clock.now.offset == .seconds(1))
        clock.advance(by: .seconds(2))
        try await late.value
        #expect(order.rawValue == [1, 3])
    }

    @Test("The Clock requirement is the same wait, so code written against any Clock works")
    func clockConformance() async throws {
        let clock = ManualClock()
        let waiter = Task { try await Self.waitOnAnyClock(clock, for: .seconds(5)) }
        await clock.waitUntilPending(count: 1)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(5))])
        clock.advance(by: .seconds(5))
        try await waiter.value
    }

    /// A queue written against `any Clock` waits like this (the only `Clock` call in the kit's
    /// tests: it suspends on the manual clock, no real time passes).
    private static func waitOnAnyClock<C: Clock>(_ clock: C, for duration: C.Duration) async throws {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }

    @Test("Instants measure durations")
    func instantArithmetic() {
        let start = ManualClock.Instant.zero
        let later = start.advanced(by: .milliseconds(1500))
        #expect(start.duration(to: later) == .milliseconds(1500))
        #expect(start < later)
        #expect(later.description == "t=1500 ms")
    }
}
