"""A report that one must-have of several is met, then "anything else?": the caller asks about the
must-haves not told (conditions on an offer it has not accepted yet, a request the report is not
about) instead of ending; once it has accepted an offer, the conditions were checked then."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

MUST = [
    "Your hotel booking must stay unchanged on July 9.",
    "The train ticket must be moved to July 4 (Lyon to Paris).",
    "The new train must leave after 3:00 PM.",
]


def _trip(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"booking_code": "TRN4KQ", "new_date": "2026-07-04"},
        goal="You want to move your train ticket to July 4 and keep your hotel booking as it is.",
        must=MUST,
        start="Hi, I need to move my train.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1])
def test_one_kept_must_have_reported_leaves_the_conditions_asked(seed: int) -> None:
    act = _trip(seed).respond("All set: your hotel booking stays unchanged on July 9. Anything else?")
    assert not act.ends_call and act.rule == "must_have_not_told"
    assert "train ticket is moved to July 4" in act.text and "must" not in act.text


def test_after_an_accepted_offer_the_conditions_were_checked() -> None:
    c = _trip()
    offer = c.respond("I can move you to the 4:10 PM train on July 4. Would you like me to book it?")
    assert offer.kind == "confirm" and offer.choice == "yes"
    act = c.respond(
        "Done: your train is moved and your hotel booking stays unchanged on July 9. Anything else?"
    )
    assert act.ends_call


def _roles(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP552190"},
        goal="You want your system access updated for your new team lead role and a quarterly "
        "security audit booked.",
        must=[
            "Your access update for the team lead role is submitted and you receive a case number.",
            "Your quarterly security audit is booked, and you are given the audit date.",
        ],
        intents=["Update my system access for my new team lead role"],
        start="Hi, I need my access updated.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_report_of_another_must_have_does_not_finish_the_one_request(seed: int) -> None:
    c = _roles(seed)
    act = c.respond("All set: your quarterly audit is booked for May 2. Anything else?")
    assert not act.ends_call and "team lead" in act.text and c.tracker.pending() == [0]


def test_a_report_naming_nothing_still_finishes_the_one_request() -> None:
    c = _roles()
    c.respond("Your access update is submitted, case number CS-1182. Your audit is booked for May 2.")
    assert c.tracker.pending() == []
