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
    package func regressionTest(
        typeName name: String, reference: String? = nil, module: String, invariant: ContractDescriptor, provenance: String,
        originalSteps: Int
    ) -> String {
        let function = name.prefix(1).lowercased() + name.dropFirst().filter { $0.isLetter || $0.isNumber }
        // Spelled in two parts so no line of this library's source starts with the attribute:
        // the printed text is a test for the user's target, not one declared here.
        let testAttribute = "@" + "Test"
        return """
            // Found by the conformance kit's explorer (\(provenance)): \(invariant.title).
            // Shrunk from \(originalSteps) to \(steps.count) steps. Needs `import Testing`,
            // `import ConformanceTesting` and the module that declares \(name) (\(module)).
            \(testAttribute)("\(name): \(invariant.title) (explorer regression)")
            func \(function)ExplorerRegression() async {
                let schedule: PagerSchedule = \(swiftLiteral(indent: "    "))
                await schedule.check(\(name).self\(reference.map { ", comparingWith: \($0).self" } ?? ""))
            }
            """
    }
}
