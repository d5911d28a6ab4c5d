"""A goal caller's act withdrawn unsaid (the live driver held it: the agent spoke first) leaves
no trace in the call's state: the facts it would have given are not given, its turn and stall
counts and its phrasings' draws are as before, and the turn it answered, heard again with the
agent's next words, is decided as a caller that never decided it would."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig

INFO = {"employee_id": "EMP824156", "phone_last_four": "4471"}
STATEMENT = "I can help you with that."  # the caller acknowledges it: "Alright."
ASK = "Can you please provide your employee ID and the last four digits of your phone number?"


def _caller(seed: int) -> GoalCaller:
    sc = make_scenario(INFO, goal="You want to reset your password.", start="Hi, I need a password reset.")
    c = GoalCaller(sc, GoalCallerConfig(seed=seed), withdrawable=True)
    c.open()
    return c


def _state(c: GoalCaller) -> tuple[object, ...]:
    return (sorted(c.given), list(c.acts), c.turn, c.stalls.count, c.ended, c.s.agent_turn)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_withdrawn_act_is_decided_again_as_if_never_decided(seed: int) -> None:
    held, fresh = _caller(seed), _caller(seed)
    before = _state(held)
    act = held.respond(STATEMENT)
    assert act.kind == "acknowledge" and act.text
    held.withdraw(act)
    assert _state(held) == before
    again = held.respond(f"{STATEMENT} {ASK}")
    assert again == fresh.respond(f"{STATEMENT} {ASK}")
    assert set(again.facts) == set(INFO) and _state(held) == _state(fresh)


def test_withdrawn_facts_are_not_given_and_are_given_again_without_as_i_said() -> None:
    held = _caller(0)
    act = held.respond(ASK)
    assert set(act.facts) == set(INFO) and held.given >= set(INFO)
    held.withdraw(act)
    assert not held.given & set(INFO)
    again = held.respond(f"{ASK} I need both to verify you.")
    assert set(again.facts) == set(INFO) and "said" not in again.text.lower()


def test_only_the_last_act_can_be_withdrawn_once() -> None:
    c = _caller(0)
    first = c.respond(STATEMENT)
    c.respond(ASK)
    with pytest.raises(ValueError, match="last act"):
        c.withdraw(first)
    last = c.acts[-1]
    c.withdraw(last)
    with pytest.raises(ValueError, match="last act"):
        c.withdraw(c.acts[-1])


def test_a_caller_made_for_text_keeps_no_state_to_withdraw() -> None:
    """The bench's callers say every act: they pay no copy per decision."""
    c = opened(make_scenario(INFO, goal="You want to reset your password."), 0)
    with pytest.raises(ValueError, match="withdrawable=False"):
        c.withdraw(c.respond(STATEMENT))
