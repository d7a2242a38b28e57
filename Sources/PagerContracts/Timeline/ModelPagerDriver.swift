/// Drives a ``PagerModelAdapter``: a synchronous state machine, fully deterministic.
///
/// The driver itself is not generic: it calls the adapter through the closures of a
/// ``ModelPagerSession``, made by ``factory(_:)``. That factory is inlinable, and so are the
/// entry points that reach it with the adapter's type (`PagerExploration.explore(_:options:)`,
/// `ImplementationUnderCheck.pager(_:…)`): in an optimised build the closures are compiled
/// for that one adapter type, in the module that names it, instead of through its generic
/// metadata, which the explorer's hot loop paid on every step (about 15% of a model-level
/// schedule's samples under `perf`). The fixed contracts and one-schedule replays make their
/// driver in `PagerContracts`: the generic build, fast enough for one timeline.
@usableFromInline
final class ModelPagerDriver: SynchronousPagerDriving {
    /// Makes a fresh driver over a fresh adapter instance; safe to call from any task.
    @usableFromInline typealias Factory = @Sendable () -> ModelPagerDriver

    let capabilities: PagerCapabilities
    private let session: ModelPagerSession

    /// A driver over `session`, an adapter instance declaring `capabilities`.
    @usableFromInline
    init(capabilities: PagerCapabilities, session: ModelPagerSession) {
        self.capabilities = capabilities
        self.session = session
    }

    /// A factory of drivers over fresh instances of `adapter`, compiled for that type where
    /// the caller inlines it.
    @inlinable
    static func factory<Adapter: PagerModelAdapter>(_ adapter: Adapter.Type) -> Factory {
        { ModelPagerDriver(capabilities: Adapter.capabilities, session: ModelPagerSession(Adapter.self)) }
    }

    var canDeliverTwice: Bool { true }
    var plannedAnswers: [Int] { [] }
    func holdsOtherAnswer(toRequest index: Int, than answer: PageAnswer) -> Bool { false }
    func stepSkipped() {}
    var triggerUnobservable: String? { nil }
    var assumptionCount: Int { 0 }

    func takeNotes() -> [String] { [] }
    func isFollowUp(_ later: Int, of earlier: Int) -> Bool { true }
    var lastTriggerWaits: Bool { false }
    func finish() async {}

    func performNow(_ trigger: PagerTrigger) -> TriggerOutcome {
        do {
            return .started(try session.perform(trigger).map { [$0] } ?? [])
        } catch {
            return .rejected(String(describing: error))
        }
    }

    func answerNow(request index: Int, with answer: PageAnswer) -> [PagePosition] {
        session.answer(index, answer).map { [$0] } ?? []
    }

    func stateNow() -> PagerState { session.state() }
}
