import ConformanceKit

extension PagerSchedule {
    /// This schedule as a Swift Testing test that replays it against an adapter: paste it into
    /// a test target that imports `Testing`, `ConformanceTesting` and the adapter's module.
    /// - Parameters:
    ///   - typeName: The adapter type the schedule fails against.
    ///   - reference: The reference of a differential check, if the schedule was found with one.
    ///   - module: The module that declares it.
    ///   - invariant: The invariant it fails.
    ///   - provenance: How it was found, such as `random, seed 7, schedule 12`.
    ///   - originalSteps: The length before shrinking.
    ///   - strictTier: The finding's tier, when the exploration was strict.
    ///   - appearsFirst: Whether the adapter declares `.appear`: the replay then sends the appear
    ///     event before the first step (a first `.bottomReached` is that event), and the test
    ///     says so, since its steps and the transcript's words differ there.
    package func regressionTest(
        typeName name: String, reference: String? = nil, module: String, invariant: ContractDescriptor, provenance: String,
        originalSteps: Int, strictTier: ContractTier? = nil, appearsFirst: Bool = false
    ) -> String {
        RegressionTestSource.test(
            scheduleType: "PagerSchedule", literal: swiftLiteral(indent: "    "), steps: steps.count,
            typeName: name,
            checkArguments: "\(name).self" + (reference.map { ", comparingWith: \($0).self" } ?? ""),
            module: module, invariant: invariant, provenance: provenance, originalSteps: originalSteps,
            strictTier: strictTier,
            note: appearsFirst && !steps.isEmpty
                ? "\(name) declares `.appear`: the list appears at the first step (a first `.bottomReached` is the appear event)."
                : nil)
    }
}
