/// Escalations of a task that parks on the timeline, handed from the escalation handler to the
/// registration without losing one that comes in between.
///
/// The handler is installed before the park registers (a join after that must produce an
/// event), but what the join is noted against (the request's number, the wait's identity) is
/// known only once it has registered. An escalation in between is kept, and the registration
/// takes it: dropped there, a joiner went unseen (a pager's load left at its creation priority,
/// P5 and P8 on the watchdog 1 run in 30; a write queue's request the same, the explorer on the
/// watchdog in `JitterBackoffOutbox` about once in 20,000 schedules).
///
/// ```swift
/// let escalations = EscalationsBeforeRegistration<Escalation>()
/// // in the escalation handler, on the escalating task:
/// if let number = escalations.deliver(escalation) { note(escalation, of: number) }
/// // in the registration, once the number is known:
/// for escalation in escalations.register(number) { note(escalation, of: number) }
/// ```
package final class EscalationsBeforeRegistration<Escalation: Sendable>: Sendable {
    private struct State: Sendable {
        var number: Int?
        var early: [Escalation] = []
    }

    private let state = Locked(rawValue: State())

    package init() {}

    /// Hands over an escalation: returns the registered number to note it against now, or
    /// `nil` when the park has not registered yet (it is kept for ``register(_:)``).
    package func deliver(_ escalation: Escalation) -> Int? {
        state.withLock { state in
            if state.number == nil { state.early.append(escalation) }
            return state.number
        }
    }

    /// Records the park's number and returns the escalations that came before it, oldest
    /// first, each returned once; later ones are delivered with the number.
    package func register(_ number: Int) -> [Escalation] {
        state.withLock { state in
            state.number = number
            defer { state.early = [] }
            return state.early
        }
    }
}
