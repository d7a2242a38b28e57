import Foundation
import Testing
import WriteQueueContracts

@Suite("ManualClock's Date view")
struct ManualClockDateTests {
    @Test("Dates move with the clock from 2026-01-01 and never repeat between moves")
    func datesNeverTie() {
        let clock = ManualClock()
        let first = clock.date
        let second = clock.date
        #expect(first == ManualClock.epoch)
        #expect(second > first)
        #expect(second.timeIntervalSince(first) < 0.001)
        clock.advance(by: .seconds(10))
        #expect(clock.date == ManualClock.epoch.addingTimeInterval(10))
    }

    @Test("A stored due date converts back to the instant the clock shows it")
    func dueDateRoundTrip() {
        let clock = ManualClock()
        let due = clock.date(at: ManualClock.Instant(offset: .seconds(3)))
        #expect(clock.instant(at: due) == ManualClock.Instant(offset: .seconds(3)))
    }
}
