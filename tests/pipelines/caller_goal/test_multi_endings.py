"""How a caller with more than one request ends: the agent's goodbye with a request open gets that
request once, a transfer under way ends the call, a completion of something it never asked for
completes none of its requests, and a request named done in a closing turn is done."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

INTENTS = ["Swap my shift with a colleague", "Register for on-call availability"]


def _caller(seed: int, intents: list[str] | None = INTENTS) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "unit_code": "5B-PEDS"},
        goal="You want to swap a shift and register for on-call availability.",
        intents=intents,
        start="Hi, I have two scheduling things.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_agents_goodbye_with_a_request_open_gets_it_once_then_ends(seed: int) -> None:
    c = _caller(seed)
    c.respond("Your shift swap has been submitted. Is there anything else I can help you with?")
    first = c.respond("Thank you for calling. Goodbye.")
    assert first.rule == "agent_goodbye_request_open" and not first.ends_call
    assert "on-call" in first.text and "before you go, i need to register" in first.text.lower()
    last = c.respond("Thank you for calling. Goodbye.")
    assert last.ends_call and last.end_reason == "agent_goodbye"


@pytest.mark.parametrize("seed", [0, 1])
def test_the_agents_goodbye_with_nothing_open_ends_at_once(seed: int) -> None:
    c = _caller(seed)
    c.respond("Your shift swap has been submitted. Is there anything else I can help you with?")
    c.respond("You're registered for on-call availability.")
    if c.ended:  # the second completion may already close the call
        return
    bye = c.respond("Thank you for calling. Goodbye.")
    assert bye.ends_call and bye.rule == "agent_goodbye"


@pytest.mark.parametrize("turn", ["Please hold while I transfer you to a live agent.",
                                  "You're being transferred to a specialist now."])  # fmt: skip
def test_a_transfer_under_way_ends_the_call(turn: str) -> None:
    act = _caller(0).respond(turn)
    assert act.ends_call and act.end_reason == "transfer"


def test_a_transfer_under_way_followed_by_a_question_is_not_the_end() -> None:
    act = _caller(0).respond("I can connect you while I transfer you to a live agent, is that okay?")
    assert not (act.ends_call and act.rule == "transfer_ends_call")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_completion_of_something_never_asked_for_completes_none_of_its_requests(seed: int) -> None:
    c = _caller(seed)
    act = c.respond("Your parking permit has been renewed. Is there anything else I can help you with?")
    assert c.done == [False, False] and not act.ends_call
    assert "shift" in act.text.lower()


def test_everything_complete_is_still_every_request_done() -> None:
    c = _caller(0)
    c.respond("Everything is complete. Is there anything else I can help you with?")
    assert c.done == [True, True]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_request_named_done_in_a_closing_turn_is_done(seed: int) -> None:
    c = _caller(seed)
    act = c.respond("I've taken care of that: your request to swap your shift with a colleague is done. "
                    "Is there anything else I can help you with?")  # fmt: skip
    assert c.done == [True, False] and "request_named_done" in act.rules
    assert act.rule == "next_intent" and "on-call" in act.text


def test_a_request_named_done_in_a_turn_asking_the_next_step_is_a_step() -> None:
    c = _caller(0)
    c.respond("Your shift swap is done. What is your employee ID?")
    assert c.done == [False, False]


def test_a_completion_with_its_result_details_is_still_its_request_done() -> None:
    """'Cancelled; thirty-nine pounds goes back to your card.': only the clause with the done verb
    says what was done; the refund's words are details, not another thing done."""
    c = _caller(0, intents=None)
    c.respond("Cancelled; thirty-nine pounds goes back to your card. Anything else?")
    assert c.done == [True]
