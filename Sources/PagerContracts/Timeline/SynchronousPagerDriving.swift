/// A driver whose every step ends before it returns: the model level, a synchronous state
/// machine with nothing to settle.
///
/// The explorer runs hundreds of thousands of steps a second at this level; calling the driver
/// through these synchronous twins of ``PagerDriving``'s `async` requirements spares each step
/// the suspension points and executor checks of an `async` call through an existential.
/// The `async` requirements of such a driver do exactly what these do. A trigger the adapter
/// rejects is a value (``TriggerOutcome/rejected(_:)``), not an error, so none of them throws.
protocol SynchronousPagerDriving: PagerDriving {
    /// ``PagerDriving/perform(_:)``, synchronously.
    func performNow(_ trigger: PagerTrigger) -> TriggerOutcome

    /// ``PagerDriving/answer(request:with:)``, synchronously.
    func answerNow(request index: Int, with answer: PageAnswer) -> [PagePosition]

    /// ``PagerDriving/state()``, synchronously.
    func stateNow() -> PagerState
}

extension SynchronousPagerDriving {
    /// Calls ``performNow(_:)``.
    func perform(_ trigger: PagerTrigger) async throws -> TriggerOutcome { performNow(trigger) }

    /// Calls ``answerNow(request:with:)``.
    func answer(request index: Int, with answer: PageAnswer) async throws -> [PagePosition] {
        answerNow(request: index, with: answer)
    }

    /// Calls ``stateNow()``.
    func state() async -> PagerState { stateNow() }
}
