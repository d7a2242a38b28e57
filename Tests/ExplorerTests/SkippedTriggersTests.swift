import ConformanceKit
import Testing

/// A search that skips triggers it could not settle says which kinds, so an adopter can tell
/// what went unexplored (the thirty-third outside trial saw "326 unobservable triggers" and
/// could not tell tab switches from refreshes). `UnobservedTriggerRestartTests` checks a search
/// names the step it left out.
@Suite struct SkippedTriggersTests {
    @Test func theBreakdownPutsTheMostFirstThenTheName() {
        var skipped = SkippedTriggers()
        for kind in [".retry", ".refresh", ".refresh", ".bottomReached", ".bottomReached", ".refresh"] {
            skipped.add(kind)
        }
        let total = skipped + { var other = SkippedTriggers(); other.add(".retry"); return other }()
        #expect(total.total == 7)
        #expect(SkippedTriggers.breakdown(total.byKind) == "3 .refresh, 2 .bottomReached, 2 .retry")
    }

    @Test func theHeadlineNamesTheKinds() {
        let result = ExplorationResult(
            subject: "Inbox", strategy: .random(seed: 1), schedules: 10, steps: 100, findings: [], seconds: 0.1,
            secondsToFailure: nil, unobservableTriggers: 3,
            unobservableTriggersByKind: [".changeQuery": 2, ".refresh": 1])
        #expect(result.headline.contains("skipped 3 unobservable triggers of 100 steps (2 .changeQuery, 1 .refresh)"), "\(result.headline)")
    }
}
