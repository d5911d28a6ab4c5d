"""More kinds of goal-caller decisions on small scenarios: either/or questions, offers outside
the goal, readiness questions, courtesy tails, open questions, troubleshooting steps that name a
fact, facts holding one value, counts, and how a chosen option is said."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.choose import say_option
from voxbench.pipelines.caller.goal.options import offered_options
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened


def _wifi() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP048271",
            "issue_description": "Can't connect to the corporate Wi-Fi at all",
            "network_issue_type": "wifi",
        },
        goal="Your laptop cannot connect to the corporate Wi-Fi; you want it fixed.",
        negotiation=["Forgetting the saved network and reconnecting fixes the issue."],
        start="Hi, my Wi-Fi isn't working.",
    )


def test_either_or_question_answered_as_a_statement() -> None:
    act = opened(_wifi()).respond(
        "For the Wi-Fi issue, are you unable to connect at all, or does it connect and then fail to load anything?"
    )
    assert act.kind == "choose" and act.choice == "unable to connect at all"
    assert act.text == "I can't connect to the corporate Wi-Fi at all." and act.facts == ["issue_description"]
    q = "Are you unable to connect at all, or does it connect and then fail to load anything?"
    assert say_option("unable to connect at all", q, Phrasing(0)) == "I am unable to connect at all."


def test_context_before_the_question_is_not_an_option() -> None:
    q = "For the Wi-Fi issue, are you unable to connect at all, or does it connect and then fail to load anything?"
    assert offered_options([q], q) == [
        "unable to connect at all",
        "does it connect and then fail to load anything",
    ]
    q2 = "Would you like me to check any fare class, which could include a higher cabin, or look at a different date?"
    assert offered_options([q2], q2) == ["check any fare class", "look at a different date"]


def test_a_chosen_option_is_said_in_the_callers_words() -> None:
    p = Phrasing(0)
    q = "Is your account locked out because of failed sign-ins, or has your password expired?"
    assert (
        say_option(offered_options([q], q)[0], q, p) == "My account is locked out because of failed sign-ins."
    )
    q = "Would you like to change the seat preference or add a bag?"
    assert say_option("change the seat preference", q, p) == "I'd like to change the seat preference."
    q = "Would you like me to check all floors, or look at a different date?"
    assert say_option("look at a different date", q, p) == "Please look at a different date."
    assert not say_option("aisle", "Window or aisle?", p).startswith("I'll take Aisle")


def test_troubleshooting_step_naming_a_fact_is_not_a_request() -> None:
    act = opened(_wifi()).respond("First, please turn off Wi-Fi and turn it back on. Did that resolve it?")
    assert act.kind == "report" and act.choice == "not_fixed" and act.facts == []


def test_open_question_states_the_request_not_a_fact() -> None:
    sc = make_scenario(
        {"employee_id": "EMP082463", "target_employee_id": "EMP072948"},
        goal="You want the department code of employee EMP072948.",
        intents=["Look up another employee's department code"],
    )
    act = opened(sc).respond("Thanks, Patrick. What would you like me to check in the employee record?")
    assert act.kind == "state_request" and "E M P zero seven two nine four eight" in act.text


def test_readiness_question_gets_a_yes() -> None:
    act = opened(_wifi()).respond(
        "Before I log this, I need to walk through a few checks. Are you with the laptop now and able to try them?"
    )
    assert act.kind == "confirm" and act.choice == "yes" and act.rule == "willing_says_yes"


def test_a_modal_question_giving_a_fact_is_a_request_not_a_readiness_question(airline: Scenario) -> None:
    """'Can you provide me with your fax number?' asks for the fax number: one the caller lacks is
    said lacking, never 'Yes, I can.'; one it holds is given; a readiness question still gets a yes."""
    for q in (
        "Can you provide me with your fax number?",
        "Would you be able to give me your passport number?",
        "Are you able to provide the frequent flyer number?",
        "Are you able to provide the trailer hitch plate?",  # 'provide the X': asked, whatever X is
        "Would you be able to provide the boat trailer registration?",
    ):
        act = opened(airline).respond(q)
        assert act.kind == "cannot_answer" and act.rule == "no_fact_for_question", (q, act.rule)
        assert "don't have" in act.text and not act.text.startswith("Yes")
    held = opened(airline).respond("Would you be able to give me your confirmation number?")
    assert held.kind == "answer" and held.facts == ["confirmation_number"]
    ready = opened(_wifi()).respond("Would you be able to try that now?")
    assert ready.rule == "willing_says_yes"


def test_confirm_your_field_stating_no_value_asks_it(airline: Scenario) -> None:
    """'Can you confirm your fax number?' asks the caller to state it: one it lacks is said lacking,
    never 'Yes, go ahead.'; one it holds is given; with a value stated it is still a read-back."""
    for q in ("Can you confirm your fax number?", "Please verify your passport number.",
              "Would you confirm your home mailing address, please?"):  # fmt: skip
        act = opened(airline).respond(q)
        assert act.kind == "cannot_answer" and act.rule == "no_fact_for_question", (q, act.rule)
        assert "don't have" in act.text and not act.text.startswith("Yes")
    held = opened(airline).respond("Can you verify your confirmation number for me?")
    assert held.kind == "answer" and held.facts == ["confirmation_number"]
    read = opened(airline).respond("Can you confirm your confirmation number is Z K three F F W?")
    assert read.rule == "confirm_readback_matches" and read.choice == "yes"
    wrong = opened(airline).respond("Can you confirm your last name is Silva?")
    assert wrong.choice == "no" and "Lima" in wrong.text


def test_a_field_named_or_its_initials_are_no_value_stated() -> None:
    """'Are you able to provide the home mailing address?' asks for a field: the initials of 'provide
    the home' are not the country code 'PH' read back; in 'Please confirm your home mailing address.'
    'mailing address' is not the state 'MA', nor 'pto' in 'your pto end date' the leave type."""
    sc = make_scenario({"employee_id": "EMP897305", "dependent_country_of_birth": "PH", "state": "MA",
                        "pto_type": "pto", "pto_end_date": "2026-08-28"})  # fmt: skip
    for q in (
        "Are you able to provide the home mailing address?",
        "Please confirm your home mailing address.",
    ):
        act = opened(sc).respond(q)
        assert act.kind == "cannot_answer" and act.rule == "no_fact_for_question", (q, act.rule)
    act = opened(sc).respond("Please confirm your pto end date.")
    assert act.kind == "answer" and act.facts == ["pto_end_date"], act


def test_a_courtesy_tail_gets_no_words(airline: Scenario) -> None:
    c = opened(airline)
    c.respond("May I have your confirmation number?")
    act = c.respond("Please.")
    assert act.kind == "wait" and act.text == "" and act.rule == "courtesy_waits"


def test_offer_outside_the_goal_is_declined(airline: Scenario) -> None:
    c = opened(airline)
    act = c.respond("Let me check the options. Do you want to add travel insurance?")
    assert act.kind == "refuse" and act.choice == "no" and act.rule == "offer_outside_goal"
    act = c.respond(
        "There is a nonstop at one PM with a fifty dollar fee. Would you like me to book that flight?"
    )
    assert act.kind == "confirm" and act.choice == "yes"


def test_offer_outside_the_goal_after_the_request_is_done_is_declined_and_ends(airline: Scenario) -> None:
    act = opened(airline).respond("Your flight is changed. Do you want to add travel insurance?")
    assert act.ends_call and act.choice == "no" and act.rule == "offer_outside_goal_all_done_end"


def test_facts_holding_one_value_answer_a_head_noun_together() -> None:
    sc = make_scenario(
        {
            "dispatch_building": "Headquarters",
            "dispatch_floor": "FL2",
            "delivery_building": "Headquarters",
            "delivery_floor": "FL2",
            "preferred_room_building": "East Campus",
        },
        goal="Your laptop is broken; you want a technician and a replacement.",
    )
    act = opened(sc).respond("What building is the laptop located in?")
    assert act.kind == "answer" and "Headquarters" in act.text


def test_a_count_is_said_with_its_noun() -> None:
    sc = make_scenario({"confirmation_number": "ZK3FFW", "bags_wanted": 1}, goal="You want to add one bag.")
    act = opened(sc).respond("How many bags wanted?")
    assert act.text == "One bag."


def test_asked_for_the_change_it_states_its_limits_once() -> None:
    sc = make_scenario(
        {
            "confirmation_number": "ZK3FFW",
            "desired_new_departure_date": "2026-03-25",
            "Maximum total rebooking cost": "$120",
            "seat_preference": {"first_choice": "window", "second_choice": "aisle"},
        },
        goal="You want to move your flight to March 25 for $120 or less, keeping a window seat.",
    )
    c = opened(sc)
    act = c.respond("What is your confirmation number?")
    assert act.facts == ["confirmation_number"]
    act = c.respond("Thanks. What new date would you like?")
    assert act.facts[0] == "desired_new_departure_date" and "Maximum total rebooking cost" in act.facts
    assert "120" in act.text and act.text.index("March 25") < act.text.index("120")
    act = c.respond("I have March twenty-fifth. Is that the date you want?")
    assert act.kind == "confirm" and "120" not in act.text  # said once


def test_a_backup_request_is_not_listed_or_asked_next() -> None:
    sc = make_scenario(
        {"employee_id": "EMP048271"},
        goal="You want a desk on floor 2, or floor 3 as a backup.",
        intents=[
            "Get a desk on floor 2",
            "Get a desk on floor 3 as my backup choice",
            "Get an ergonomic chair",
        ],
    )
    c = opened(sc)
    act = c.respond("What can I help you with today?")
    assert "floor 3" not in act.text and "chair" in act.text
    act = c.respond("Your desk on floor 2 is assigned. Is there anything else?")
    assert act.kind == "state_request" and "chair" in act.text and "floor 3" not in act.text


def test_the_amount_called_total_is_the_offers_cost() -> None:
    sc = make_scenario({"confirmation_number": "ZK3FFW"}, must=["The total extra cost is under $200."])
    act = opened(sc).respond(
        "Flight six ten has a seventy-five dollar fare difference plus a seventy-five dollar change fee, for one "
        "hundred fifty dollars total. A bag fee of two hundred forty dollars applies later. Would you like me to book it?"
    )
    assert act.kind == "confirm" and act.choice == "yes"


def test_an_option_claiming_a_fact_it_lacks_is_not_taken() -> None:
    act = opened(_wifi()).respond(
        "Do you know the asset tag on the laptop, or would you like me to look up the devices assigned to you?"
    )
    assert act.kind == "choose" and act.text == "Please look up the devices assigned to me."


def test_offered_its_first_choice_it_says_yes(airline: Scenario) -> None:
    act = opened(airline).respond("Would you like a window seat again on the new flight?")
    assert act.text.startswith("Yes.") and act.choice == "yes"


def _two_requests() -> Scenario:
    return make_scenario(
        {"employee_id": "EMP048271", "pto_start_date": "2026-07-24", "pto_end_date": "2026-07-31"},
        goal="You want your spouse added to your visa petition, and PTO for your honeymoon.",
        intents=["Add my spouse to my visa petition", "Request PTO for my honeymoon"],
        start="Hi, I have two requests.",
    )


def test_after_a_refusal_it_moves_to_its_next_request() -> None:
    c = opened(_two_requests())
    c.respond("I'm sorry, I can't do that without a matching record.")
    act = c.respond("No, I cannot proceed without a matching record. Would you like me to transfer you?")
    assert act.kind == "state_request" and "PTO" in act.text and not act.ends_call
    assert act.rule == "next_intent_after_refusal" and "transfer" in act.text


def test_an_open_question_naming_a_request_gets_that_request() -> None:
    c = opened(_two_requests())
    c.respond("Your spouse has been added to your visa petition.")  # marks one done
    c.respond("Your PTO has been recorded.")  # taken for the other, in words it does not use
    act = c.respond("Your amendment is filed. Now, what PTO question can I help with?")
    assert act.kind == "state_request" and act.rule == "named_intent" and "July 24" in act.text


def test_an_offer_naming_only_a_date_is_in_the_goal() -> None:
    sc = make_scenario(
        {"appointment_date": "2026-06-15"}, goal="You want an appointment on 2026-06-15 at 10:00."
    )
    act = opened(sc).respond("You asked for ten AM. Would you like me to book June fifteenth at ten AM?")
    assert act.kind == "confirm" and act.choice == "yes"


def test_do_you_recognize_is_a_confirmation_not_a_request() -> None:
    sc = make_scenario({"phone_number": "555-018-4418"}, goal="You want to verify your identity.")
    act = opened(sc).respond(
        "I sent the code to the number ending in four four one eight. Do you recognize that phone number?"
    )
    assert act.choice == "yes" and act.facts == []


def test_asked_what_it_wants_it_says_no_current_value_and_its_other_limits() -> None:
    """'What date would you like to travel instead?': its earliest date (a limit of its own) with
    its cost cap and seat choice, never the date of the booking it has now; 'What date or time
    would you like?' asks for a value, it offers no options."""
    sc = make_scenario(
        {
            "date_constraint_earliest_departure": "2026-12-26",
            "maximum_additional_cost_usd": "$200",
            "seat_preference": {"first_choice": "aisle", "second_choice": "window"},
            "original_travel_details": [{"flight_date": "2026-12-05", "departure_time": "10:20"}],
        }
    )
    c = opened(sc)
    act = c.respond("What date would you like to travel instead?")
    assert "December 26" in act.text and "December 5" not in act.text
    assert "$200" in act.text and "Aisle" in act.text
    assert (
        offered_options(
            ["What date or time would you like to change it to?"],
            "What date or time would you like to change it to?",
        )
        == []
    )
    later = c.respond("What date or time would you like to change it to?")
    assert "10:20" not in later.text


def test_the_request_the_agent_moves_to_is_in_hand_not_done() -> None:
    """'Your Confluence request is submitted. Now for the room booking, ...': Confluence is done,
    the room booking is the request in hand (its date is 'the date'), not done."""
    sc = make_scenario(
        {"hire_start_date": "2026-08-31", "meeting_date": "2026-08-28", "building_name": "Headquarters"},
        intents=[
            "Set up accounts for my new hire",
            "Get Confluence access for myself",
            "Book a room for the meeting",
        ],
    )
    c = opened(sc)
    act = c.respond(
        "Your Confluence access request has been submitted. Now for the room booking, please give me the "
        "building and the date."
    )
    assert c.tracker.done == [False, True, False]
    assert "August 28" in act.text and "August 31" not in act.text


def test_a_date_comes_with_its_time_and_progress_is_not_a_stall() -> None:
    sc = make_scenario({"preferred_date": "2026-10-06", "preferred_time": "10:00 AM", "employee_id": "EMP1"})
    c = opened(sc)
    act = c.respond("For the check-in, what date would you prefer?")
    assert "October 6" in act.text and "10 AM" in act.text
    for _ in range(c.config.stall_limit + 1):  # the first confirm is a decision; the repeats are not
        c.respond("Yes, I have that. Is that correct?")
    assert c.stalls.spent  # one more turn without progress would end the call
    act = c.respond("That's done. Is there anything else I can help with?")
    assert act.rule != "stalled_call_end" and not act.ends_call


def test_which_of_its_requests_first_is_a_choice_by_its_own_order() -> None:
    """'Which would you like to handle first: the I-9 or PTO?' names two of its requests: it picks the
    first in its own order, it does not answer facts about the PTO."""
    sc = make_scenario(
        {"document_number": "J2O7S3KKV", "pto_start_date": "2026-10-08", "pto_end_date": "2026-10-09"},
        intents=["Submit I-9 verification documents", "Request PTO days for a family event"],
    )
    c = opened(sc)
    act = c.respond("Which would you like to handle first: PTO days, or the I-9 documents?")
    assert act.kind == "choose" and "I-9" in act.text and "October" not in act.text


def test_a_building_comes_with_its_floor() -> None:
    sc = make_scenario({"delivery_building": "East Campus", "delivery_floor": "FL1", "employee_id": "EMP1"})
    c = opened(sc)
    act = c.respond("What building should the replacement be delivered to?")
    assert "East Campus" in act.text and "floor 1" in act.text


def test_refused_with_nothing_left_to_ask_it_says_goodbye() -> None:
    """Its one request refused and its follow-up spent, the agent explaining again (or saying the
    request 'is rejected' with a transfer offer) gets a goodbye, not 'Okay.'."""
    sc = make_scenario({"employee_id": "EMP1"}, intents=["File FMLA leave"])
    c = opened(sc)
    assert c.respond("I'm not able to file FMLA leave for you today.").kind == "pushback"
    act = c.respond("You have not met either requirement: twelve months of employment and 1,250 hours.")
    assert act.ends_call and act.rule == "failure_condition_end"
    c2 = opened(sc)
    c2.respond("I'm not able to file FMLA leave for you today.")
    act = c2.respond(
        "No. The request is rejected automatically. I can transfer you to a live agent if you want."
    )
    assert act.ends_call


def test_a_request_naming_its_floor_is_said_with_the_building() -> None:
    sc = make_scenario(
        {"building_name": "Headquarters", "floor": "FL2", "employee_id": "EMP1"},
        intents=["Get my account unlocked", "Get a desk on floor 2"],
    )
    c = opened(sc)
    act = c.respond("Your account is unlocked. What's the next thing you need help with?")
    assert act.kind == "state_request" and "desk on floor 2" in act.text and "Headquarters" in act.text


def test_two_questions_with_options_both_answered_by_its_facts() -> None:
    """'Is this your first monitor setup, or are you replacing one? And what size: 24 or 27 inch?'"""
    sc = make_scenario(
        {"monitor_justification": "new_setup", "monitor_size": "27_inch", "employee_id": "EMP1"}
    )
    c = opened(sc)
    act = c.respond(
        "Now let's do the monitor request. Is this your first monitor setup, or are you replacing an "
        "existing monitor? And what size do you need: twenty four inch, or twenty seven inch?"
    )
    assert "new setup" in act.text and "twenty seven inch" in act.text.lower()
    assert "monitor_justification" in act.facts
