/// The realistic bugs the page-number mutants carry, one per mutant.
enum PagerBug: Sendable {
    /// `start()` does not check for a request in flight: a second bottom trigger cancels and
    /// restarts the same page.
    case restartsWhileInFlight
    /// De-duplicates through a `Set` and sorts to get a stable order.
    case sortsAfterDeduplicating
    /// `finish` compares only the generation, so a completion that runs twice is accepted twice.
    case acceptsRepeatedCompletion
    /// The ticket is only the page number: page 2 of the old query passes for page 2 of the new.
    case ticketIsThePageNumber
    /// `fail` has no ticket check: any failure shows an error and clears loading.
    case showsStaleFailures
    /// A failure advances the page, so retry asks for the next one.
    case advancesOnFailure
    /// `start()` ignores `hasMore`.
    case forgetsTheEnd
    /// A cancellation error clears loading before the ticket check ("my request was cancelled").
    case treatsCancellationAsCurrent
    /// Refresh resets the page but keeps the generation.
    case keepsGenerationOnRefresh
    /// No bound on pages that add nothing.
    case chainsEmptyPagesForever
    /// A fill buffers its pages and commits them together at the end.
    case commitsFillAtTheEnd
}
