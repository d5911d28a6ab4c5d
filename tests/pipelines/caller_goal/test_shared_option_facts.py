"""A fact every offered option shares cannot tell them apart: a slot list after a colon ('times on
August 21: nine AM, ten AM, and one PM') is one option per item, so the date they share picks
none and the preferred time picks one."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.options import offered_options
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.turn import Turn

INFO = {
    "dea_number": "OK1006810",
    "preferred_date": "2026-08-21",
    "preferred_time": "10:00 AM",
}
SLOTS = (
    "I have three competency review times available on August twenty-first, twenty twenty-six: "
    "nine AM, ten AM, and one PM. Which time would you like?"
)


def _caller(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        INFO,
        goal="You need to transfer your DEA registration to your new facility and schedule a competency review.",
        intents=["Transfer my DEA registration to the new facility", "Schedule my competency review"],
        start="Hi, I have a couple of credentialing things.",
    )
    return opened(sc, seed)


def test_a_colon_list_of_times_is_one_option_each() -> None:
    t = Turn.of(SLOTS)
    assert offered_options(t.sents, t.questions[-1]) == ["nine AM", "ten AM", "one PM"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_shared_date_does_not_pick_the_time_does(seed: int) -> None:
    act = _caller(seed).respond(SLOTS)
    assert act.rule == "option_matches_fact:preferred_time"
    assert "10 AM" in act.text and "9 AM" not in act.text
