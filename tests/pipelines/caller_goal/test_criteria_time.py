"""The option at a clock time the caller's criteria name is the one chosen (:mod:`.goal.choose`)."""

from __future__ import annotations

from tests.pipelines.caller_goal.conftest import make_scenario, opened


def test_an_option_at_a_time_its_criteria_name_is_chosen_over_shared_words() -> None:
    """'the three PM flight' for 'a departure time around 15:00', though 'keep your current one'
    shares two words with the goal ('keep any fee under $80', 'current time') (:mod:`.goal.choose`)."""
    sc = make_scenario(
        {"confirmation_number": "ZK3FFW", "last_name": "Lima"},
        goal="You want the earliest same-day flight home, and you want to keep any change fee under $80.",
        must=["You depart around 15:00 today (current time 14:15)."],
    )
    act = opened(sc).respond(
        "Would you still like the three PM flight, or would you prefer to keep your current one?"
    )
    assert act.kind == "choose" and "3 PM" in act.text and act.rule == "option_at_criteria_time"
