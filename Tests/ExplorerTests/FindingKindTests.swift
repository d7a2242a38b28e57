import ConformanceTesting
import Testing

/// A finding says what failed as a type: a contract's rule (named by its ID), an adapter
/// error or a hang, never a placeholder ID in a contract's place; a rule's finding reads under
/// that contract's title and rule, not under the list of invariants.
@Suite struct FindingKindTests {
    @Test func aBrokenRuleIsNamedByItsContract() async throws {
        let result = await PagerExploration.explore(
            PagerWithTwoBugs.self, options: ExplorationOptions(strategy: .random(seed: 1), budget: 200))
        #expect(Set(result.findings.map(\.kind)) == [.rule("P2"), .rule("P7")], "\(result.fullText)")
        for finding in result.findings {
            #expect(finding.kind.contract == finding.invariant.id)
            // The report reads under that contract: its title once, then its own rule.
            #expect(finding.report.contract == finding.invariant)
            let message = try #require(finding.report.messages.first)
            #expect(message.hasPrefix(finding.invariant.title), "\(message)")
            #expect(message.contains("  Rule: \(finding.invariant.rule)"), "\(message)")
            #expect(!message.hasPrefix("\(finding.invariant.title): \(finding.invariant.title)"), "\(message)")
        }
    }

    @Test func anUnawaitedTriggerIsAnAdapterErrorThatNoExpectationCovers() async throws {
        var options = ExplorationOptions(strategy: .random(seed: 1), budget: 50)
        options.expecting = ["P4"]
        let result = await PagerExploration.explore(PagerWhoseAdapterSpawnsItsTrigger.self, options: options)
        #expect(result.findings.count == 1, "\(result.fullText)")
        let finding = try #require(result.finding, "\(result.headline)")
        #expect(finding.kind == .adapterError, "\(result.fullText)")
        #expect(finding.kind.contract == nil)
        #expect(finding.kind.name == "adapterError")
        #expect(finding.invariant.title == "adapter error")
        #expect(result.headline.contains("an adapter error stopped a step (no rule's verdict)") && !result.headline.contains("adapter adapter"), "\(result.headline)")
        #expect(result.expectedButNotFound == ["P4"], "an adapter error is no rule's finding")
        // The request it names is the one the timeline shows, by the timeline's own number, or
        // it says the timeline does not show it yet (the twenty-ninth trial's message named the
        // scheduler's "request #3" and a trigger over a timeline that showed neither).
        let message = try #require(finding.report.messages.first)
        let named = try #require(message.firstMatch(of: /but (request #\d+|a request for .+ \(not in the timeline yet\)) (came from|is still open)/))
        if named.output.1.hasPrefix("request #") {
            #expect(message.contains("→ \(named.output.1)") || message.contains(", \(named.output.1)"), "\(message)")
        }
        // The failing step is the trigger whose work it was, not the step before it.
        #expect(message.contains("▶ 2. bottom reached → an adapter error (see the message)"), "\(message)")
    }
}
