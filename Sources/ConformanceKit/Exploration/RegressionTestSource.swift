/// The Swift source the explorer prints for a shrunk schedule, the same for every family of
/// schedules: the schedule as an array literal, and the paste-ready Swift Testing test that
/// replays it.
package enum RegressionTestSource {
    /// Steps as a Swift array literal, one per line: `[\n    .bottomReached,\n]`.
    /// - Parameters:
    ///   - steps: Each step as Swift code, such as `.bottomReached`.
    ///   - indent: The indentation of the closing bracket.
    package static func arrayLiteral(_ steps: [String], indent: String) -> String {
        guard !steps.isEmpty else { return "[]" }
        return "[\n" + steps.map { "\(indent)    \($0)," }.joined(separator: "\n") + "\n\(indent)]"
    }

    /// A Swift Testing test that replays a schedule against an adapter: paste it into a test
    /// target that imports `Testing`, `ConformanceTesting` and the adapter's module.
    /// - Parameters:
    ///   - scheduleType: The schedule's type, such as `PagerSchedule`.
    ///   - literal: The schedule as an array literal indented for the test's body.
    ///   - steps: How many steps it has.
    ///   - typeName: The adapter type the schedule fails against.
    ///   - checkArguments: The arguments of the test's `check` call, such as `MyAdapter.self`.
    ///   - module: The module that declares the adapter.
    ///   - invariant: The invariant it fails.
    ///   - provenance: How it was found, such as `random, seed 7, schedule 12`.
    ///   - originalSteps: The length before shrinking.
    ///   - strictTier: The finding's tier when the exploration was strict: the test then runs
    ///     strictly too when it is a recommended rule's, so it fails as the exploration did.
    package static func test(
        scheduleType: String, literal: String, steps: Int, typeName name: String, checkArguments: String,
        module: String, invariant: ContractDescriptor, provenance: String, originalSteps: Int,
        strictTier: ContractTier? = nil, note: String? = nil
    ) -> String {
        let arguments = checkArguments + (strictTier == .recommended ? ", options: RunOptions(strict: true)" : "")
        // Named by the rule too: one exploration can print a test per broken rule, and they
        // must paste into one file side by side.
        let function =
            name.prefix(1).lowercased() + name.dropFirst().filter { $0.isLetter || $0.isNumber }
            + invariant.id.rawValue.filter { $0.isLetter || $0.isNumber }
        // Spelled in two parts so no line of this library's source starts with the attribute:
        // the printed text is a test for the user's target, not one declared here.
        let testAttribute = "@" + "Test"
        return """
            // Found by the conformance kit's explorer (\(provenance)): \(invariant.title).
            // Shrunk from \(originalSteps) to \(steps) steps. Needs `import Testing`,
            // `import ConformanceTesting` and the module that declares \(name) (\(module)).\(note.map { "\n// \($0)" } ?? "")
            \(testAttribute)("\(name): \(invariant.title) (explorer regression)")
            func \(function)ExplorerRegression() async {
                let schedule: \(scheduleType) = \(literal)
                await schedule.check(\(arguments))
            }
            """
    }
}
