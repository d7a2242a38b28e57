"""Explores the Python port of the source document's Pager with Hypothesis' stateful testing
(RuleBasedStateMachine), checking the kit's invariants I1-I5 after every step, and prints one
JSON object per pager: found, invariant, shrunk steps, examples to the first failure, seconds.

usage: python explore_pager.py [--budget N] [--steps N]
"""

import argparse
import json
import time

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from pager_model import BUGS, Pager


class InvariantFailed(AssertionError):
    """An invariant failed; the first one raised in a run marks the time to the first failure."""

    first = None  # (examples, steps, perf_counter) of the first failure of the current run

    def __init__(self, invariant_id: str, text: str, counters=None):
        super().__init__(f"{invariant_id}: {text}")
        self.invariant_id = invariant_id
        if counters is not None and "first" not in counters:
            counters["first"] = (counters["examples"], counters["steps"], time.perf_counter())


def machine_for(bug, counters):
    class PagerMachine(RuleBasedStateMachine):
        """The kit's oracle: requests by number, what was accepted in the current generation."""

        def __init__(self):
            super().__init__()
            counters["examples"] += 1
            self.pager = Pager(bug)
            self.generation = 0
            self.requests = []  # [generation, ticket, page, answer or None]
            self.accepted = []
            self.accepted_pages = 0
            self.ended = False
            self.start_visible = []
            self.steps = []
            counters["last_steps"] = self.steps

        def _register(self, ticket):
            if ticket is None:
                return
            if self.ended:
                raise InvariantFailed("I5", "a request after the end of the list", counters)
            if any(r[0] == self.generation and r[3] is None for r in self.requests):
                raise InvariantFailed("I1", "two requests in flight for the current query", counters)
            if ticket.page != self.accepted_pages + 1:
                raise InvariantFailed("I3", f"asked for page {ticket.page} after {self.accepted_pages} accepted", counters)
            self.requests.append([self.generation, ticket, ticket.page, None])

        def _step(self, name):
            counters["steps"] += 1
            self.steps.append(name)

        @rule()
        def bottom_reached(self):
            self._step("bottom reached")
            self._register(self.pager.start())

        @rule()
        def change_query(self):
            self._step("query changed")
            self.generation += 1
            self.accepted, self.accepted_pages, self.ended = [], 0, False
            self.start_visible = list(self.pager.ids)
            self.pager.reset()

        @precondition(lambda self: any(r[3] is None for r in self.requests))
        @rule(
            data=st.data(),
            rows=st.lists(st.integers(min_value=1, max_value=8), max_size=3),
            has_more=st.booleans(),
        )
        def deliver(self, data, rows, has_more):
            open_requests = [r for r in self.requests if r[3] is None]
            request = data.draw(st.sampled_from(open_requests))
            self._step(f"deliver {self.requests.index(request) + 1}")
            request[3] = (rows, has_more)
            before = list(self.pager.ids)
            stale = request[0] != self.generation
            if not stale:
                for row in rows:
                    if row not in self.accepted:
                        self.accepted.append(row)
                self.accepted_pages += 1
                self.ended = self.ended or not has_more
            self.pager.finish(request[1], rows, has_more)
            if stale and self.pager.ids != before:
                raise InvariantFailed("I4", "a stale answer changed the visible items", counters)

        @precondition(lambda self: any(r[3] is not None for r in self.requests))
        @rule(data=st.data())
        def redeliver(self, data):
            answered = [r for r in self.requests if r[3] is not None]
            request = data.draw(st.sampled_from(answered))
            self._step(f"redeliver {self.requests.index(request) + 1}")
            before = list(self.pager.ids)
            self.pager.finish(request[1], *request[3])
            if request[0] != self.generation and self.pager.ids != before:
                raise InvariantFailed("I4", "a stale answer changed the visible items", counters)

        @invariant()
        def visible_list(self):
            ids = self.pager.ids
            if len(set(ids)) != len(ids):
                raise InvariantFailed("I2", f"duplicate visible IDs {ids}", counters)
            if ids != self.accepted and not (self.accepted_pages == 0 and ids in ([], self.start_visible)):
                raise InvariantFailed("I3", f"visible {ids}, accepted {self.accepted}", counters)

    return PagerMachine


def explore(bug, budget, steps):
    counters = {"examples": 0, "steps": 0, "last_steps": []}
    machine = machine_for(bug, counters)
    started = time.perf_counter()
    found, invariant_id = False, None
    try:
        run_state_machine_as_test(
            machine,
            settings=settings(
                max_examples=budget, stateful_step_count=steps, database=None, derandomize=True,
                deadline=None, suppress_health_check=list(HealthCheck), print_blob=False,
                report_multiple_bugs=False,
            ),
        )
    except InvariantFailed as failure:
        found, invariant_id = True, failure.invariant_id
    seconds = time.perf_counter() - started
    first = counters.get("first")
    return {
        "implementation": bug or "SeedPager (source document)",
        "kind": "mutant" if bug else "reference",
        "found": found,
        "invariant": invariant_id,
        "steps": len(counters["last_steps"]) if found else None,
        "schedules": first[0] if first else counters["examples"],
        "secondsToFailure": round(first[2] - started, 3) if first else None,
        "examples": counters["examples"],
        "stepsExecuted": counters["steps"],
        "seconds": round(seconds, 3),
        "examplesPerSecond": round(counters["examples"] / seconds, 1) if seconds > 0 else None,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=24)
    arguments = parser.parse_args()
    print(json.dumps([explore(bug, arguments.budget, arguments.steps) for bug in BUGS], indent=2))


if __name__ == "__main__":
    main()
