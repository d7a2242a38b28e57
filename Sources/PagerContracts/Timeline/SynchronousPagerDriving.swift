/// A driver whose every step ends before it returns: the model level, a synchronous state
/// machine with nothing to settle.
///
/// The explorer runs hundreds of thousands of steps a second at this level; calling the driver
/// through these synchronous twins of ``PagerDriving``'s `async` requirements spares each step
/// the suspension points and executor checks of an `async` call through an existential.
/// The `async` requirements of such a driver do exactly what these do.
protocol SynchronousPagerDriving: PagerDriving {
    /// ``PagerDriving/perform(_:)``, synchronously.
    func performNow(_ trigger: PagerTrigger) throws -> TriggerOutcome

    /// ``PagerDriving/answer(request:with:)``, synchronously.
    func answerNow(request index: Int, with answer: PageAnswer) throws -> [PagePosition]

    /// ``PagerDriving/state()``, synchronously.
    func stateNow() -> PagerState
}

extension SynchronousPagerDriving {
    func perform(_ trigger: PagerTrigger) async throws -> TriggerOutcome { try performNow(trigger) }

    func answer(request index: Int, with answer: PageAnswer) async throws -> [PagePosition] {
        try answerNow(request: index, with: answer)
    }

    func state() async -> PagerState { stateNow() }
}
