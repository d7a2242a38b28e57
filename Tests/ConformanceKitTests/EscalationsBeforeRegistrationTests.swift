import ConformanceKit
import Testing

/// A join that escalates a parking task while it registers (its handler is installed, its
/// number not yet known) is noted against that number once it is known: never dropped, never
/// noted twice. Dropped, the joiner went unseen and the explorer waited on the watchdog
/// (`JitterBackoffOutbox`, about once in 20,000 schedules).
@Suite struct EscalationsBeforeRegistrationTests {
    @Test func anEscalationBeforeRegistrationIsHandedToTheRegistrationOnce() {
        let escalations = EscalationsBeforeRegistration<String>()
        #expect(escalations.deliver("a pass joined") == nil)
        #expect(escalations.deliver("a probe") == nil)
        #expect(escalations.register(7) == ["a pass joined", "a probe"])
        #expect(escalations.register(7) == [], "each early escalation is handed over once")
    }

    @Test func anEscalationAfterRegistrationIsNotedAtOnce() {
        let escalations = EscalationsBeforeRegistration<String>()
        #expect(escalations.register(3) == [])
        #expect(escalations.deliver("a later pass joined") == 3)
        #expect(escalations.register(3) == [], "one delivered with the number is not kept")
    }

    /// Escalations from many threads racing the registration: each is noted exactly once,
    /// either handed to the registration or delivered with the number, whatever the
    /// interleaving.
    @Test func racingEscalationsAreEachNotedOnce() async {
        for _ in 0..<200 {
            let escalations = EscalationsBeforeRegistration<Int>()
            let noted = Locked(rawValue: [Int]())
            await withTaskGroup(of: Void.self) { group in
                for escalation in 0..<8 {
                    group.addTask {
                        if escalations.deliver(escalation) != nil { noted.withLock { $0.append(escalation) } }
                    }
                }
                group.addTask {
                    let early = escalations.register(1)
                    noted.withLock { $0.append(contentsOf: early) }
                }
            }
            #expect(noted.rawValue.sorted() == Array(0..<8))
        }
    }
}
