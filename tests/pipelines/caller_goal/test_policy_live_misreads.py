"""Goal-caller misreads seen in `make run` live calls on 2026-12-04 (built-in airline bb.1, bb.2, bb.3,
the small local agent), replayed on small scenarios of the same shape.

* bb.2: asked 'Do you prefer window, aisle, or middle?' the caller heard it cut after its first
  option ('Do you prefer window?') and said "Yes, that's correct." as to a read-back.
* bb.2: after 'I have changed your seat preference to window.', 'If you have any other questions,
  feel free to ask.' got "Okay." three times and a give-up goodbye: it is the agent's "anything
  else?", and with its request done the caller thanks and ends the call.
* bb.1: 'I'll add a checked bag to the journey. The new total number of checked bags is 1.' got
  "Okay, thanks." and the request was restated: the stated result is the count it wants.
"""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.ending import CONFIRMED_LAST_END
from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened

FEEL_FREE = "I understand. If you have any other questions, feel free to ask. I'll be here to help."


def _seat() -> Scenario:
    return make_scenario(
        {"confirmation_code": "HN4R8B", "last_name": "Lima", "Seat preference": "window"},
        goal="You want a window seat on your flight.",
        start="Hello, can I get a window seat on my flight?",
    )


def _bag() -> Scenario:
    return make_scenario(
        {"confirmation_code": "QX7T4M", "last_name": "Lima", "Bags wanted": 1},
        goal="You want to add one checked bag to your flight.",
        start="Hi, I'd like to add a checked bag to my flight.",
    )


# -- A: offered its preference --------------------------------------------------------------------


def test_options_of_its_preference_get_its_choice() -> None:
    act = opened(_seat()).respond("Sure, I can help you with that. Do you prefer window, aisle, or middle?")
    assert act.kind == "choose" and act.choice == "window" and "window" in act.text.lower()


def test_a_preference_question_cut_after_its_value_gets_its_choice_not_a_read_back_yes() -> None:
    act = opened(_seat()).respond("I can help you with that. Do you prefer window?")
    assert act.kind == "choose" and act.rule == "offered_its_preference"
    assert act.text == "Yes, window, please." and act.choice == "window"


def test_a_read_back_of_an_identity_fact_is_still_confirmed() -> None:
    """Only a preference fact is chosen; 'Is your last name Lima?' stays a read-back."""
    act = opened(_seat()).respond("Is your last name Lima?")
    assert act.kind == "confirm" and act.rule == "confirm_readback_matches"


# -- B: anything else, said as a statement, with the request done ---------------------------------


def test_a_report_naming_the_request_asked_right_is_confirmed_and_closed() -> None:
    """The report names the only request done ('your seat preference'), reads its one value back
    right and asks only 'Is that right?': the end_readback_last class (EVA's reference callers
    confirm and close; the same report with no question already ends, ``resolution_end``)."""
    c = opened(_seat())
    act = c.respond("Great! I have changed your seat preference to window. Is that right?")
    assert act.ends_call and act.rule == CONFIRMED_LAST_END and act.text.startswith("Yes")
    assert c.done == [True]


def test_feel_free_to_ask_after_the_request_is_done_thanks_and_ends() -> None:
    c = opened(_seat())
    # a completion naming no request ('All set.') is read as the one in hand: a bare yes, no close
    act = c.respond("All set. I have window for confirmation code HN4R8B. Is that right?")
    assert act.kind == "confirm" and not act.ends_call
    assert c.done == [True]  # the completion is noted on that turn
    act = c.respond(FEEL_FREE)
    assert act.ends_call and act.rule == "nothing_else_end"
    assert "thank" in act.text.lower() and not act.text.lower().startswith("no")


def test_anything_else_asked_after_the_request_is_done_says_no_and_thanks() -> None:
    act = opened(_bag()).respond("Done, one checked bag is now on your flight. Anything else?")
    assert act.ends_call and act.text.startswith("No") and "thank" in act.text.lower()


# -- C: a stated result, an announced action --------------------------------------------------------


def test_an_announced_action_with_the_wanted_result_ends_the_call_politely() -> None:
    c = opened(_bag())
    act = c.respond("Okay, I'll add a checked bag to the journey. The new total number of checked bags is 1.")
    assert act.ends_call and act.rule == "resolution_end" and "thank" in act.text.lower()
    assert "result_stated:Bags wanted" in act.rules


def test_an_announced_action_alone_is_waited_on_and_its_result_next_turn_completes() -> None:
    c = opened(_bag())
    act = c.respond("Okay, I'll add a checked bag to the journey.")
    assert act.kind == "wait" and act.text == ""
    act = c.respond("The new total number of checked bags is 1.")
    assert act.ends_call and act.rule == "resolution_end"


@pytest.mark.parametrize(
    "line",
    [
        "Okay, I'll add two checked bags. The new total number of checked bags is 2.",  # not its value
        "Got it. The new total number of checked bags is 1.",  # a read-back: no action, no 'now'
        "I'll add the bag if you want.",  # an offer, not an announced action
    ],
)
def test_no_completion_without_the_wanted_result_of_an_action(line: str) -> None:
    c = opened(_bag())
    act = c.respond(line)
    assert not act.ends_call and c.done == [False]


def test_a_result_said_with_now_needs_no_announced_action() -> None:
    c = opened(_bag())
    act = c.respond("You now have one checked bag on your flight.")
    assert act.ends_call and c.done == [True]


def test_a_read_back_with_a_request_is_no_result() -> None:
    """medical_hr D4.2 in caller check: 'Got it. The new carrier is Mag Mutual. Now please give me
    the new policy number' must not mark the update done."""
    c = opened(_bag())
    act = c.respond("I'll add it now. The new total number of checked bags is 1. What is your last name?")
    assert act.kind == "answer" and c.done == [False]


# -- D: anything else, said as a statement, with the request NOT done ------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "You're welcome! If you have any other questions, feel free to ask.",
        "Let me know if there's anything else I can do.",
    ],
)
def test_feel_free_to_ask_before_the_request_is_done_states_it(line: str) -> None:
    act = opened(_bag()).respond(line)
    assert act.kind == "state_request" and act.rule == "request_still_open" and not act.ends_call
    assert act.text.startswith("Actually,") and "add one checked bag" in act.text


def test_anything_else_asked_before_the_request_is_done_says_yes_and_states_it() -> None:
    act = opened(_bag()).respond("Is there anything else I can help you with?")
    assert act.kind == "state_request" and act.text.startswith("Yes,") and "add one checked bag" in act.text


def test_the_open_request_is_stated_once_then_the_caller_leaves() -> None:
    c = opened(_bag())
    first = c.respond("If you have any other questions, feel free to ask.")
    second = c.respond("If you have any other questions, feel free to ask.")
    assert first.kind == "state_request"
    assert second.ends_call and not second.facts and "goodbye" in second.text.lower()


def test_feel_free_to_ask_with_a_question_is_no_anything_else() -> None:
    """A closing courtesy in a turn that still asks something is answered as that question."""
    act = opened(_bag()).respond("If you have any other questions, feel free to ask. What is your last name?")
    assert act.kind == "answer" and act.facts == ["last_name"]


def test_a_wh_question_is_not_a_yes_no_offer() -> None:
    """'What would you like to know about it?' asks for the request, not yes or no (make run
    2026-12-04, bb.3: the caller answered 'Yes. I want to know whether ...')."""
    sc = make_scenario(
        {"confirmation_code": "TC2W9K", "last_name": "Lima"},
        goal="You want to know whether your flight to Denver today is on time.",
        intents=["Know whether my flight to Denver today is on time"],
        start="Hi, is my flight to Denver today on time?",
    )
    act = opened(sc).respond("I found your booking. What would you like to know about it?")
    assert act.kind == "state_request" and not act.text.startswith("Yes")
    act = opened(_seat()).respond("What do you prefer?")
    assert not act.text.startswith("Yes")


def test_an_offer_to_do_it_now_takes_up_the_one_request_in_hand() -> None:
    """'Would you like to assign it now?' with one request pending: yes, and the request (make
    run 2026-12-04, bb.2: the caller said 'Sorry, I don't have that information.')."""
    act = opened(_seat()).respond("You want a window seat. Would you like to assign it now?")
    assert act.kind == "state_request" and act.text.startswith("Yes.") and "window seat" in act.text
