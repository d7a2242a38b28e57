import ConformanceKit
import PagerContracts

extension BundledImplementations {
    /// The bundled pagers: references, adopters and mutants, each with its ledger.
    public static var pagers: [ImplementationUnderCheck] {
        [
            .pager(
                SeedPagerAdapter.self, name: "SeedPager", kind: .reference,
                summary: "The source document's Pager, with failure, retry, refresh, fill and stall."),
            .pager(
                CursorPagerAdapter.self, name: "CursorPager", kind: .reference,
                summary: "A cursor pager with the stall and cycle protocol errors."),
            .pager(
                FeedStoreAdapter.self, name: "FeedStore", kind: .adopter,
                summary: "An app-style list model with String IDs and the conforming variations."),
        ] + pagerMutants
    }
}
