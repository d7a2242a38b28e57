/// The seam between a contract's timeline and one level of integration.
///
/// The model level drives a synchronous state machine; the async level (a controlled page
/// source in front of real async code) plugs in here too, so each contract is written once.
/// Requests are numbered by the order the driver reports them, starting at 0.
protocol PagerDriving: AnyObject {
    /// The adapter's declared capabilities.
    var capabilities: PagerCapabilities { get }

    /// Fires a trigger and returns what it started once the subject is settled.
    func perform(_ trigger: PagerTrigger) async -> TriggerOutcome

    /// Answers request `index` and returns any requests the answer made the pager start.
    func answer(request index: Int, with answer: PageAnswer) async -> [PagePosition]

    /// What the user sees now, in the kit's terms.
    func state() async -> PagerState
}
