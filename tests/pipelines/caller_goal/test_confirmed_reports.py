"""A request named as confirmed or submitted is a completion report (:meth:`.ending.Endings.named_done`),
not a read-back of the caller's values for it to confirm (:func:`.forms.check_statement`)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario

INFO = {"employee_id": "EMP770412", "leave_type": "bereavement"}
INTENTS = ["Book bereavement leave for next week", "Update my home address"]


def _caller() -> GoalCaller:
    sc = make_scenario(INFO, goal="You want bereavement leave booked and your home address updated.",
                       intents=INTENTS, start="Hi, I need two changes.")  # fmt: skip
    caller = GoalCaller(sc)
    caller.open()
    return caller


def test_a_request_named_confirmed_ends_the_call_once_the_rest_is_done() -> None:
    caller = _caller()
    caller.respond("All set: your home address update is done. Anything else I can do?")
    act = caller.respond("Your bereavement leave for next week is confirmed.")
    assert act.ends_call and act.end_reason == "resolved", act


def test_a_request_named_submitted_with_its_own_words_holding_a_before() -> None:
    caller = _caller()
    caller.respond("Your bereavement leave for next week is approved. Is there anything else?")
    act = caller.respond("Your request to update your home address before the move has been submitted.")
    assert act.ends_call, act


def test_a_value_read_back_as_a_statement_is_still_checked() -> None:
    caller = _caller()
    act = caller.respond("So your employee ID is E M P seven seven zero four one two.")
    assert act.kind == "confirm" and act.choice == "yes" and not act.ends_call
