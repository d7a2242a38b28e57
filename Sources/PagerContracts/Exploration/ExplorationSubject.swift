import ConformanceKit

/// How the explorer makes a fresh subject for each schedule, behind the `PagerDriving` seam.
/// Every schedule gets a new driver, and the explorer ends it with `finish()`.
///
/// A model-level subject has no delivery modes. An async-level subject is explored under the
/// delivery modes it lists, one per schedule, picked from the schedule's seed; its driver is
/// an ``AsyncPagerDriver`` with a scheduler of its own.
struct ExplorationSubject: Sendable {
    /// The adapter's name, for reports.
    let name: String
    /// The adapter type, for the printed regression test.
    let typeName: String
    /// The adapter's module, for the printed regression test.
    let module: String
    /// The delivery modes to explore (async level); empty at the model level.
    let modes: [DeliveryMode]
    /// Whether the adapter declares `.appear` (the first step is preceded by the appear event).
    var appearsFirst = false
    /// Creates a fresh driver wired to `recorder`, under a delivery mode (async level only),
    /// with the answers an `alreadyAvailable` run hands over at registration.
    let makeDriver: @Sendable (TimelineRecorder, DeliveryMode?, AnswerPlan) async -> any PagerDriving
    /// The reference for the differential check, if any: its name and a fresh driver.
    var reference: (name: String, makeDriver: @Sendable () async -> any PagerDriving)?

    /// A model-level adapter, each schedule on a fresh driver from `driverFactory`: made by
    /// ``ModelPagerDriver/factory(_:)`` in inlinable code, it is compiled for the adapter's type
    /// where an optimised build knows it; made here, it is the generic build.
    static func model<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, driverFactory: @escaping ModelPagerDriver.Factory
    ) -> ExplorationSubject {
        ExplorationSubject(
            name: String(describing: Adapter.self), typeName: String(describing: Adapter.self),
            module: moduleName(of: Adapter.self), modes: [],
            appearsFirst: Adapter.capabilities.triggers.contains(.appear),
            makeDriver: { _, _, _ in driverFactory() })
    }

    /// A model-level adapter compared, step by step, with a model-level reference, each on
    /// drivers from its own factory.
    static func model<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        _ adapter: Adapter.Type, driverFactory: @escaping ModelPagerDriver.Factory,
        comparingWith reference: Reference.Type, referenceDriverFactory: @escaping ModelPagerDriver.Factory
    ) -> ExplorationSubject {
        var subject = model(Adapter.self, driverFactory: driverFactory)
        subject.reference = (String(describing: Reference.self), { referenceDriverFactory() })
        return subject
    }

    /// An async-level adapter: its real async code behind the kit's page source, settled by
    /// evidence, explored under `modes`.
    static func async<Adapter: AsyncPagerAdapter>(
        _ adapter: Adapter.Type, modes: [DeliveryMode] = DeliveryMode.allCases
    ) -> ExplorationSubject {
        ExplorationSubject(
            name: String(describing: Adapter.self), typeName: String(describing: Adapter.self),
            module: moduleName(of: Adapter.self), modes: modes.isEmpty ? [.immediate] : modes,
            appearsFirst: Adapter.capabilities.triggers.contains(.appear),
            makeDriver: { recorder, mode, plan in
                let driver = AsyncPagerDriver<Adapter>(
                    mode: mode ?? .immediate, plan: plan, snapshotsObserve: false, exploring: true)
                await driver.prepare(recorder: recorder)
                return driver
            })
    }

    private static func moduleName(of type: Any.Type) -> String {
        String(reflecting: type).split(separator: ".").first.map(String.init) ?? String(describing: type)
    }
}
