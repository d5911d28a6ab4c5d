"""How an open must-have is asked about: the goal's words turned to the caller's, in grammar."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.agenda import Agenda, _base_form


def _question(criterion: str) -> str:
    (item,) = Agenda([criterion]).items
    return item.as_question()


def test_an_agent_action_is_asked_for_in_its_base_form() -> None:
    q = _question("The agent transfers your case to a supervisor/live agent.")
    assert q == "Can you also transfer my case to a supervisor or live agent?"


def test_a_state_is_asked_to_be_confirmed() -> None:
    assert _question("The agent confirms your seat is kept") == "Can you also confirm that my seat is kept?"


@pytest.mark.parametrize(
    ("verb", "base"),
    [("transfers", "transfer"), ("issues", "issue"), ("notifies", "notify"),
     ("processes", "process"), ("reaches", "reach"), ("fixes", "fix")],
)  # fmt: skip
def test_base_form(verb: str, base: str) -> None:
    assert _base_form(verb) == base
