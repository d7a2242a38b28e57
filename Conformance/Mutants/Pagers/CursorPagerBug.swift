/// The realistic bugs the cursor mutants carry, one per mutant.
enum CursorPagerBug: Sendable {
    /// Stores the response's cursor before the ticket check, so stale and duplicate responses
    /// move it.
    case takesCursorFromAnyResponse
    /// No check that the cursor advanced: the same page is requested forever.
    case noStallCheck
    /// Checks only "same cursor as requested", missing a cycle (A, B, A).
    case noCycleCheck
    /// Treats "no cursor" as "start again": after the last page, loads page 1 again.
    case restartsAfterTheEnd
}
