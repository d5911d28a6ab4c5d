"""End-of-call turns in EVA's own words (:mod:`voxbench.bench.weak_refendings`): a farewell that
states one of the caller's own held fields with another value is not transplanted into that
scenario (the caller corrects it first, which the class does not grade)."""

from __future__ import annotations

from voxbench.bench.weak_refendings import misstates
from voxbench.bench.weak_turns import Builder

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"confirmation_number": "XXF6OH", "last_name": "Kim"}


def _builder() -> Builder:
    return Builder(
        "airline", make_scenario(INFO, goal="You want to move your flight to an earlier one today.")
    )


def test_another_value_of_its_own_field_misstates_it() -> None:
    b = _builder()
    farewell = "To close the call, your confirmation number is I N T, zero zero zero zero zero one. Goodbye."
    assert misstates(farewell, b.own, b.scenario)


def test_its_own_value_or_another_field_does_not() -> None:
    b = _builder()
    assert not misstates("Your confirmation number is X X F six O H. Goodbye.", b.own, b.scenario)
    assert not misstates("Your case number is CASE dash A C C T zero four. Goodbye.", b.own, b.scenario)
