"""The source document's Pager (shared/seeds/000: a Swift struct with start, reset and finish),
ported to Python, with a few of the kit's pager mutants as one switchable bug each.

Written for the explorer benchmark: the same pager and the same bugs as the Swift mutants,
explored by Hypothesis' stateful testing instead of the kit's explorer.
"""

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Ticket:
    generation: int
    page: int


BUGS = (
    None,                           # the source document's pager, correct
    "forgets_the_end",              # start() ignores has_more            (Swift: PagerThatForgetsTheEnd)
    "restarts_while_loading",       # a second start() restarts the page  (PagerThatRestartsWhileLoading)
    "accepts_repeated_completion",  # checks only the generation          (PagerThatAcceptsRepeatedCompletions)
    "ticket_is_the_page_number",    # the ticket is the page number only  (PagerWhoseTicketIsThePageNumber)
    "sorts_after_deduplicating",    # de-duplicates through a set, sorted (PagerThatSortsAfterDeduplicating)
)


class Pager:
    """`struct Pager` from the source document; `bug` switches in one mutant's bug."""

    def __init__(self, bug: Optional[str] = None):
        self.bug = bug
        self.generation = 0
        self.next_page = 1
        self.ids: list[int] = []
        self.in_flight: Optional[Ticket] = None
        self.has_more = True

    def start(self) -> Optional[Ticket]:
        if not self.has_more and self.bug != "forgets_the_end":  # BUG: forgets_the_end
            return None
        if self.in_flight is not None and self.bug != "restarts_while_loading":  # BUG
            return None
        ticket = Ticket(self.generation, self.next_page)
        self.in_flight = ticket
        return ticket

    def reset(self) -> None:
        self.generation += 1
        self.next_page = 1
        self.ids = []
        self.in_flight = None
        self.has_more = True

    def _matches(self, ticket: Ticket) -> bool:
        if self.bug == "accepts_repeated_completion":  # BUG
            return ticket.generation == self.generation
        if self.bug == "ticket_is_the_page_number":  # BUG
            return self.in_flight is not None and ticket.page == self.in_flight.page
        return self.in_flight == ticket

    def finish(self, ticket: Ticket, rows: list[int], has_more: bool) -> None:
        if not self._matches(ticket):
            return
        seen = set(self.ids)
        for row in rows:
            if row not in seen:
                seen.add(row)
                self.ids.append(row)
        if self.bug == "sorts_after_deduplicating":  # BUG
            self.ids.sort()
        self.next_page += 1
        self.has_more = has_more
        self.in_flight = None
