"""Turns that name several of the caller's facts at once: a listed ask of several fields, some not
held (goal/fit.py, goal/unheld.py), an option that carries one of its facts (goal/choose.py,
goal/options.py); and a yes to a read-back among turns that bring nothing (goal/state.py)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.choose import value_names
from voxbench.pipelines.caller.goal.facts import Fact
from voxbench.pipelines.caller.goal.fit import other_owner
from voxbench.pipelines.caller.goal.policy import GoalCaller

from .conftest import make_scenario

STAFF = {
    "first_name": "Priya",
    "last_name": "Sharma",
    "employee_id": "EMP126225",
    "date_of_birth": "1987-09-14",
    "phone_number": "617-555-4829",
    "facility_code": "TOU-77A",
}


def _caller(info: dict[str, object]) -> GoalCaller:
    c = GoalCaller(make_scenario(info))
    c.respond("Hello, how can I help?")
    return c


def test_every_held_field_of_a_listed_ask_is_answered_beside_one_not_held() -> None:
    act = _caller(STAFF).respond(
        "Could you give me your employee ID, your last name, and your mother's maiden name?"
    )
    assert "Sharma" in act.text and "mother's maiden name" in act.text and "don't have" in act.text
    act = _caller(STAFF).respond(
        "Could you give me your vehicle license plate, your last name, and your phone number?"
    )
    assert "Sharma" in act.text and "vehicle license plate" in act.text
    act = _caller(STAFF).respond("Can I get the first name, middle name, and employee ID, please?")
    assert "Priya" in act.text and "middle name" in act.text


def test_a_list_ends_where_its_items_are_no_fields() -> None:
    for turn in (
        "Please provide your employee ID, and your date of birth in year, month, day format.",
        "Please give me your employee ID and your date of birth, in year, month, day format.",
    ):
        act = _caller(STAFF).respond(turn)
        assert "don't have" not in act.text and "September 14, 1987" in act.text, (turn, act.text)


def test_two_items_of_one_field_are_no_field_not_held() -> None:
    act = _caller({**STAFF, "leave_start_date": "2026-08-17", "leave_end_date": "2026-10-12"}).respond(
        "What are your planned leave start and end dates?"
    )
    assert "don't have" not in act.text


def test_another_persons_field_is_read_in_its_own_item_of_a_list() -> None:
    last = Fact(key="last_name", value="Sharma", words=("last", "name"))
    assert not other_owner(
        "Could you give me your employee ID, your last name, and your mother's maiden name?", last
    )
    assert other_owner("Could you give me your mother's maiden name?", last)


def test_a_field_of_several_words_of_another_person_is_one_mention() -> None:
    """'the employee ID of your manager': 'employee' and 'ID' are one mention, the manager's; not
    the caller's own employee ID because 'employee' alone is followed by no 'of your manager'."""
    cases = {
        "Can I have the employee ID of your manager?": ("employee_id", ("employee", "id")),
        "The email address of your supervisor?": ("email_address", ("email", "address")),
        "And the phone number for your manager?": ("phone_number", ("phone", "number")),
    }
    for turn, (key, words) in cases.items():
        assert other_owner(turn, Fact(key=key, value="x", words=words)), turn
    assert not other_owner(
        "Can I have your employee ID?", Fact(key="employee_id", value="x", words=("employee", "id"))
    )
    for turn in ("Can I have the employee ID of your manager?", "And the phone number for your manager?"):
        act = _caller(STAFF).respond(turn)
        assert "two two five" not in act.text and "four eight two nine" not in act.text, (turn, act.text)


def test_a_fact_names_an_option_only_when_the_option_is_no_more_than_it() -> None:
    q = "For those dates, would you like to use general paid time off or sick leave?"
    assert value_names("PTO", "use general paid time off", q)
    assert value_names("PTO", "PTO", "PTO or unpaid leave?")
    assert not value_names("PTO", "request PTO for honeymoon", "Would you like to request PTO for honeymoon?")
    info = {"employee_id": "EMP126225", "pto_type": "PTO"}
    c = GoalCaller(make_scenario(info, goal="You want to request PTO for your honeymoon."))
    c.respond("Hello, how can I help?")
    act = c.respond(
        "Option one is to request PTO for honeymoon, option two is a feedback form. Which would you like?"
    )
    assert act.kind == "choose" and "honeymoon" in act.text


def test_a_long_option_after_a_question_lead_is_read() -> None:
    c = GoalCaller(
        make_scenario({"employee_id": "EMP126225"}, goal="You want to report that company email is down.")
    )
    c.respond("Hello, how can I help?")
    act = c.respond(
        "Do you want me to help you report that company email is down and get added to the tracking list"
        " or open a newsletter subscription?"
    )
    assert act.kind == "choose" and not act.text.startswith("Yes") and "newsletter" not in act.text


def test_a_yes_to_a_read_back_again_is_no_progress() -> None:
    """Its fields asked and given, then asked again in turn with read-backs between: a fact
    confirmed the first time only half moves on (no turn that stalls, none forgiven before it), the
    same read back again moves nothing on, and the caller gives up after six turns that bring nothing."""
    c = _caller(STAFF)
    asks = [f"Could you please provide your {x}?" for x in ("employee ID", "last name", "date of birth")]
    for t in asks:
        c.respond(t)
    before = c.s.progress()
    act = c.respond("So your employee ID is EMP126225, correct?")
    assert act.kind == "confirm" and c.s.progress() == (*before[:-1], before[-1] + 1)
    before = c.s.progress()
    act = c.respond("So your employee ID is EMP126225, correct?")
    assert act.kind == "confirm" and c.s.progress() == before
    acts = [c.respond(asks[n % 3]) for n in range(6)]
    assert [a.ends_call for a in acts] == [False] * 5 + [True] and acts[-1].rule == "stalled_call_end"
    assert acts[-1].turn == 12


def test_each_fact_read_back_right_is_progress_once() -> None:
    """An agent reading back seven fields one by one, each right: the caller says yes to each and
    does not stall; reading them back again is no progress, and it gives up."""
    c = _caller({**STAFF, "email_address": "priya.sharma@example.com"})
    reads = [
        "So your first name is Priya, correct?",
        "And your last name is Sharma, is that right?",
        "Your employee ID is EMP126225, correct?",
        "Your date of birth is September 14, 1987, correct?",
        "Your phone number is 617-555-4829, correct?",
        "Your facility code is TOU-77A, correct?",
        "And your email is priya.sharma@example.com, correct?",
    ]
    acts = [c.respond(t) for t in reads]
    assert [a.kind for a in acts] == ["confirm"] * 7 and c.s.progress()[-1] == 7
    again = [c.respond(reads[n % 2]) for n in range(7)]
    assert [a.ends_call for a in again] == [False] * 6 + [True] and again[-1].rule == "stalled_call_end"


def test_a_yes_to_a_read_back_does_not_reset_statements_in_a_row() -> None:
    """Statements that bring nothing, a read-back between them: the yes is no progress for the
    count of statements in a row either (``give_up_after``)."""
    c = _caller(STAFF)
    for t in ("I understand how frustrating this must be.", "Okay, I see. Thank you for explaining that."):
        c.respond(t)
    stuck = c.s.stuck
    act = c.respond("So your employee ID is EMP126225, correct?")
    assert act.kind == "confirm" and stuck == c.s.stuck == 1
