"""The caller's per-request ledger: pure updates, and a request named finished resolved there, the
turn's classification left as heard."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.ledger import NAMED_DONE, Ledger, Resolution
from voxbench.pipelines.caller.goal.policy import GoalCaller

INTENTS = ["Swap my shift with a colleague", "Register for on-call availability"]
NAMED = ("I've taken care of that: your request to swap your shift with a colleague is done. "
         "Is there anything else I can help you with?")  # fmt: skip


def _caller(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156"},
        goal="You want to swap a shift and register for on-call availability.",
        intents=INTENTS,
        start="Hi, I have two scheduling things.",
    )
    return opened(sc, seed)


def test_a_new_ledger_holds_every_request_open() -> None:
    assert Ledger.of(3).entries == (None, None, None)


def test_resolving_returns_a_new_ledger_and_leaves_the_old_one() -> None:
    old = Ledger.of(2)
    new = old.resolve(1, "done", NAMED_DONE, 4)
    assert old.entries == (None, None)
    assert new.entries == (None, Resolution("done", NAMED_DONE, 4))


def test_a_request_resolved_again_takes_the_later_turn() -> None:
    led = Ledger.of(1).resolve(0, "done", NAMED_DONE, 2).resolve(0, "done", NAMED_DONE, 5)
    assert led.turn_resolved(5, NAMED_DONE) and not led.turn_resolved(2, NAMED_DONE)


def test_what_a_turn_resolved_and_its_rules_each_once() -> None:
    led = Ledger.of(3).resolve(0, "done", NAMED_DONE, 3).resolve(2, "refused", NAMED_DONE, 3)
    assert [i for i, _ in led.at(3)] == [0, 2] and led.at(4) == []
    assert led.rules_at(3) == [NAMED_DONE] and led.rules_at(1) == []
    assert not led.turn_resolved(3, "completed_phrase")


def test_a_request_outside_the_ledger_is_a_clear_error() -> None:
    with pytest.raises(IndexError, match="request 2"):
        Ledger.of(2).resolve(2, "done", NAMED_DONE, 1)


def test_naming_a_request_done_reads_it_without_touching_the_classification() -> None:
    c = _caller()
    c.s.turn, c.s.agent_turn = 1, NAMED
    heard = classify(NAMED, c.s.book, c.s.given)
    before = heard.model_copy(deep=True)
    assert c.ends.named_done(heard) == 0 and heard == before
    assert c.s.ledger.entries == (None, None)  # reading it resolves nothing
    c.ends.note_named_done(heard)
    assert heard == before and c.s.ledger.entries[0] == Resolution("done", NAMED_DONE, 1)
    assert c.s.reports_done(heard) and "completed" in c.s.heard_kinds(heard)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_trail_of_a_request_named_done_says_so_and_the_next_turn_does_not(seed: int) -> None:
    c = _caller(seed)
    act = c.respond(NAMED)
    assert NAMED_DONE in act.rules and "completed" in act.heard and c.done == [True, False]
    nxt = c.respond("Can I have your employee ID?")
    assert NAMED_DONE not in nxt.rules and "completed" not in nxt.heard
