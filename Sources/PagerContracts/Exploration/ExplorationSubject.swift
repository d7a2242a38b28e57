import ConformanceKit

/// How the explorer makes a fresh subject for each schedule, behind the `PagerDriving` seam.
/// Every schedule gets a new driver, and the explorer ends it with `finish()`.
///
/// Only the model level is offered today: driving ``AsyncPagerDriver`` through generated
/// schedules hung on some of them (a stale answer to a load the subject had cancelled, then a
/// bottom trigger that never settled), so the async level waits for that to be understood.
struct ExplorationSubject: Sendable {
    /// The adapter's name, for reports.
    let name: String
    /// The adapter type, for the printed regression test.
    let typeName: String
    /// The adapter's module, for the printed regression test.
    let module: String
    /// Creates a fresh driver wired to `recorder`.
    let makeDriver: @Sendable (TimelineRecorder) async -> any PagerDriving
    /// The reference for the differential check, if any: its name and a fresh driver.
    var reference: (name: String, makeDriver: @Sendable () async -> any PagerDriving)?

    /// A model-level adapter.
    static func model<Adapter: PagerModelAdapter>(_ adapter: Adapter.Type) -> ExplorationSubject {
        ExplorationSubject(
            name: String(describing: Adapter.self), typeName: String(describing: Adapter.self),
            module: moduleName(of: Adapter.self), makeDriver: { _ in ModelPagerDriver<Adapter>() })
    }

    /// A model-level adapter compared, step by step, with a model-level reference.
    static func model<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        _ adapter: Adapter.Type, comparingWith reference: Reference.Type
    ) -> ExplorationSubject {
        var subject = model(Adapter.self)
        subject.reference = (String(describing: Reference.self), { ModelPagerDriver<Reference>() })
        return subject
    }

    private static func moduleName(of type: Any.Type) -> String {
        String(reflecting: type).split(separator: ".").first.map(String.init) ?? String(describing: type)
    }
}
