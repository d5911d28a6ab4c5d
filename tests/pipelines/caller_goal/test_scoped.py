"""Facts of one kind held for several requests: which request each serves (:mod:`.belong`) and
which one an agent turn asks for (:mod:`.scoped`)."""

from __future__ import annotations

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.belong import InHand, fact_owners
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller

# Three requests, each with a date of its own; a name and an employee ID for the whole call.
_LEAVE_INFO = {
    "first_name": "Astrid",
    "employee_id": "EMP368355",
    "leave_category": "employee_medical_condition",
    "leave_start_date": "2026-08-10",
    "leave_end_date": "2026-09-21",
    "shift_date": "2026-08-02",
    "preferred_time": "10:00 AM",
    "shift_time": "11:00 PM",
    "unit_code": "8A-ICU",
    "colleague_employee_id": "EMP769989",
    "pto_type": "sick",
    "pto_start_date": "2026-08-06",
    "pto_end_date": "2026-08-07",
}
_LEAVE_INTENTS = [
    "File FMLA leave for surgery and recovery",
    "Swap an upcoming shift due to pre-op conflict",
    "Request sick days before FMLA starts",
]

_HARDWARE_INFO = {
    "employee_id": "EMP059182",
    "justification": "end_of_life",
    "preferred_os": "macos",
    "laptop_size": "14_inch",
    "monitor_justification": "new_setup",
    "monitor_size": "27_inch",
    "delivery_building": "East Campus",
    "delivery_floor": "FL1",
    "meeting_date": "2026-05-19",
    "attendee_count": 4,
}
_HARDWARE_INTENTS = [
    "Get a replacement laptop since mine is end-of-life",
    "Get a new 27-inch monitor for my desk",
    "Book a conference room for a team meeting",
]


def test_each_fact_serves_the_request_its_key_and_place_name() -> None:
    """By the request's own words ('shift', 'sick' = the value of pto_type), by the key's leading
    word ('pto_start_date' next to 'pto_type'), by place (a time listed among the shift's facts);
    the name, the employee ID and a code (a kind that verifies) serve the whole call."""
    owners = fact_owners(_LEAVE_INTENTS, goal_facts(_LEAVE_INFO))
    assert owners["leave_category"] == owners["leave_start_date"] == owners["leave_end_date"] == 0
    assert owners["shift_date"] == owners["preferred_time"] == owners["shift_time"] == 1
    assert owners["pto_type"] == owners["pto_start_date"] == owners["pto_end_date"] == 2
    assert not {"first_name", "employee_id", "unit_code"} & set(owners)


def test_one_request_has_nothing_to_tell_apart() -> None:
    assert fact_owners(["Request sick days"], goal_facts(_LEAVE_INFO)) == {}


def _hand(intents: list[str], info: dict[str, object], current: int, done: list[bool]) -> InHand:
    return InHand.of(fact_owners(intents, goal_facts(info)), current, done)


def test_the_dates_asked_after_a_request_is_done_are_the_open_ones() -> None:
    """'What dates do you want off?' after the shift swap is done: the time off's dates, though
    the shift's is the one date not given yet (the time off's were, too early)."""
    book = goal_facts(_LEAVE_INFO)
    hand = _hand(_LEAVE_INTENTS, _LEAVE_INFO, 2, [True, True, False])
    given = {"leave_start_date", "leave_end_date", "pto_start_date", "pto_end_date"}
    h = classify("The swap is confirmed. What dates do you want off?", book, given, focus=hand)
    assert sorted(h.asked) == ["pto_end_date", "pto_start_date"]


def test_the_kind_said_once_is_the_open_requests_though_a_done_one_is_named_beside_it() -> None:
    """'what dates do you want off the week before your leave starts': the leave is done and
    only the time off's dates are asked, both ends though 'start' came from 'starts'."""
    book = goal_facts(_LEAVE_INFO)
    hand = _hand(_LEAVE_INTENTS, _LEAVE_INFO, 2, [True, True, False])
    text = "Now, for the paid time off request, what dates do you want off the week before your leave starts?"
    h = classify(text, book, {"leave_start_date", "leave_end_date"}, focus=hand)
    assert sorted(h.asked) == ["pto_end_date", "pto_start_date"]


def test_dates_of_a_request_to_come_are_not_given_for_the_one_in_hand() -> None:
    """'What are your leave start and end dates?' with the time off still to come (the turn says
    'paid time off' elsewhere): the leave's dates only."""
    book = goal_facts(_LEAVE_INFO)
    hand = _hand(_LEAVE_INTENTS, _LEAVE_INFO, 0, [False, False, False])
    text = "You have fourteen days of paid time off. What are your leave start and end dates?"
    h = classify(text, book, focus=hand)
    assert sorted(h.asked) == ["leave_end_date", "leave_start_date"]


def test_a_word_shared_by_two_requests_means_the_one_in_hand() -> None:
    """'screen size' says the laptop and the monitor alike: the one in hand's."""
    book = goal_facts(_HARDWARE_INFO)
    text = "Do you need Mac or Windows, and what screen size do you want?"
    laptop = classify(text, book, focus=_hand(_HARDWARE_INTENTS, _HARDWARE_INFO, 0, [False, False, False]))
    assert "laptop_size" in laptop.asked and "monitor_size" not in laptop.asked
    monitor = classify(text, book, focus=_hand(_HARDWARE_INTENTS, _HARDWARE_INFO, 1, [True, False, False]))
    assert "monitor_size" in monitor.asked and "laptop_size" not in monitor.asked


def test_a_done_requests_fact_is_given_when_named_not_for_its_kind_alone() -> None:
    """The delivery (served by the laptop request, done) is not a room's floor preference, but
    'the delivery floor' by name is still given; so is a fact asked again."""
    info = dict(_HARDWARE_INFO)
    owners = fact_owners(_HARDWARE_INTENTS, goal_facts(info)) | {"delivery_floor": 0, "delivery_building": 0}
    hand = InHand.of(owners, 2, [True, True, False])
    book = goal_facts(info)
    assert "delivery_floor" not in classify("Do you have a floor preference?", book, focus=hand).asked
    named = classify("What was the delivery floor for the laptop?", book, focus=hand)
    assert "delivery_floor" in named.asked
    again = classify("What was the shift date again?", goal_facts(_LEAVE_INFO),
                     focus=_hand(_LEAVE_INTENTS, _LEAVE_INFO, 2, [True, True, False]))  # fmt: skip
    assert again.asked == ["shift_date"]


def test_a_set_focus_still_works_without_scoping() -> None:
    """A plain set of keys (no :class:`InHand`) is the request in hand, nothing dropped."""
    book = goal_facts(_LEAVE_INFO)
    h = classify("What is the shift date?", book, focus={"pto_start_date", "pto_end_date"})
    assert h.asked == ["shift_date"]


def _leave_caller() -> GoalCaller:
    c = GoalCaller(make_scenario(_LEAVE_INFO, goal="You need leave, a shift swap and sick days.",
                                 intents=_LEAVE_INTENTS, start="Hi, I have a few HR requests."))  # fmt: skip
    c.open()
    return c


def test_the_request_in_hand_is_read_once_the_turns_completions_are_counted() -> None:
    """'Your FMLA leave has been submitted. Next, ...': the turn is about the next request."""
    c = _leave_caller()
    text = "Your FMLA leave has been submitted successfully. Next, what is the shift date and time?"
    assert c.req.in_hand(text).current == 0
    moved = c.req.in_hand(text, classify(text, c.s.book))
    assert moved.current == 1 and "shift_date" in moved.keys and "leave_start_date" in moved.done
    assert c.s.tracker.done == [False, False, False]  # counted on copies only


def test_the_caller_gives_each_requests_dates_in_turn() -> None:
    """Three requests done one after the other, each asked for its dates by kind or by name."""
    c = _leave_caller()
    first = c.respond("What are your leave category and your leave start and end dates?")
    assert sorted(first.facts) == ["leave_category", "leave_end_date", "leave_start_date"]
    shift = c.respond(
        "Your FMLA leave has been submitted successfully. Next, for the shift swap, what is the shift date and time?"
    )
    assert sorted(shift.facts) == ["shift_date", "shift_time"]
    sick = c.respond(
        "Your shift swap has been submitted successfully. For the sick days, what dates do you want?"
    )
    assert sorted(sick.facts) == ["pto_end_date", "pto_start_date"]


_NAMED_INFO = {
    "first_name": "Priya",
    "last_name": "Raman",
    "course_name_1": "Radiation Safety",
    "course_name_2": "Infection Control",
    "badge_expiration_date": "2031-03-02",
    "preferred_date": "2026-11-04",
    "preferred_time": "09:30",
}


def test_a_name_said_whole_is_asked_whatever_the_request_in_hand() -> None:
    """'your first name' with a numbered group of names in hand ('course_name_1'): 'first' is the
    field's word, not the group's number; 'your preferred date' with another date in hand: the key
    said whole, with the word a key match drops ('preferred'), names its fact."""
    book = goal_facts(_NAMED_INFO)
    courses = {"course_name_1"}
    for text in ("What is your first name?", "Can you verify your first name for me?"):
        assert classify(text, book, focus=courses).asked == ["first_name"]
    badge = {"badge_expiration_date"}
    for text in ("What is your preferred date?", "Would you confirm your preferred date, please?"):
        assert classify(text, book, focus=badge).asked == ["preferred_date"]
    assert classify("What is the date?", book, focus=badge).asked == ["badge_expiration_date"]


def test_a_name_said_whole_is_asked_again_once_given() -> None:
    """Asked 'your preferred date' again, the caller gives it again, not another date not given yet."""
    book = goal_facts(_NAMED_INFO)
    h = classify("What is your preferred date?", book, given={"preferred_date", "preferred_time"})
    assert h.asked == ["preferred_date"]


def test_a_head_said_of_something_is_not_a_fact_of_another_qualifier() -> None:
    """'the date for your follow-up appointment': not the date of birth (its own qualifier unsaid),
    the plain preferred date; 'the date of your badge expiration' names its qualifier and keeps it."""
    book = goal_facts({"date_of_birth": "1994-02-11", "preferred_date": "2026-11-04"})
    for text in ("What is the date for your follow-up appointment?", "Please give me the date of the visit."):
        assert classify(text, book).asked == ["preferred_date"], text
    book = goal_facts({"date_of_birth": "1994-02-11", "badge_expiration_date": "2031-03-02"})
    assert classify("What's the date of your badge expiration?", book).asked == ["badge_expiration_date"]
