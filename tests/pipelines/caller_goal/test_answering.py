"""Classes of turns the goal caller answers as a person does, whatever the scenario: a change to one
part of a booking named by its route with what stays; options listed before 'Which one?'; an
acronym's words; a request to try again or spell; an identifier asked that it does not hold."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.choose import say_option
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

from .conftest import make_scenario


def _round_trip() -> Scenario:
    return make_scenario(
        {
            "confirmation_number": "QW7ERT",
            "last_name": "Lima",
            "outbound_route": "JFK to SFO",
            "return_route": "SFO to JFK",
            "new_return_date": "2026-09-09",
            "original_outbound_date": "2026-09-01",
            "original_return_date": "2026-09-05",
            "original_travel_details": [
                {"origin": "JFK", "destination": "SFO", "flight_date": "2026-09-01"},
                {"origin": "SFO", "destination": "JFK", "flight_date": "2026-09-05"},
            ],
        },
        goal="You want to move only your return flight to September 9 and keep the outbound as it is.",
    )


def test_a_change_to_one_part_names_it_by_route_and_says_what_stays() -> None:
    c = GoalCaller(_round_trip())
    c.open()
    c.respond("May I have your confirmation number and last name?")
    act = c.respond("I found your round trip. What new return date would you like?")
    assert "September 9, 2026" in act.text
    assert "S F O to J F K" in act.text and "J F K to S F O" not in act.text  # codes spelled
    assert "September 1, 2026" in act.text  # the outbound stays
    assert "September 5" not in act.text  # the date it changes is not said to stay
    assert {"new_return_date", "return_route", "original_outbound_date"} <= set(act.facts)
    again = c.respond("And what new return date was that?")
    assert "stays" not in again.text and "Keep" not in again.text  # said once


def _check_in() -> Scenario:
    return make_scenario(
        {"employee_id": "EMP-1", "shift_start_time": "3:00 PM", "preferred_time": "10:00 AM",
         "pto_type": "sick"},
        goal="You want to schedule a return-to-work check-in and use sick leave for your days off.",
        start="Hi, I need to schedule a check-in.",
    )  # fmt: skip


def test_times_listed_then_which_time_is_a_choice_not_a_fact() -> None:
    c = GoalCaller(_check_in())
    c.open()
    c.respond("What time would you prefer for the check-in?")  # gives its preferred time
    act = c.respond(
        "October sixth is open, and I have ten AM, eleven AM, or two PM. Which time would you like?"
    )
    assert act.kind == "choose" and "10 AM" in act.text and "3" not in act.text


def test_a_verb_shared_by_the_options_goes_with_the_one_chosen() -> None:
    q = "Do you want to use general paid time off or sick leave?"
    assert say_option("sick leave", q, Phrasing(0)) == "I'd like to use sick leave."
    assert say_option("use general paid time off", q, Phrasing(0)) == "I'd like to use general paid time off."


def test_an_action_the_agent_offers_to_take_is_asked_of_it() -> None:
    # The agent's own 'I'll need to' is neither the caller's wish nor part of the action.
    q = "Otherwise, I'll need to direct you to Occupational Health or transfer you to a live agent."
    said = say_option("I'll need to direct you to Occupational Health", q, Phrasing(0))
    assert said == "Please direct me to Occupational Health."
    assert say_option("transfer you to a live agent", q, Phrasing(0)) == "Please transfer me to a live agent."
    q = "What would you like to do next: open a leave case related to the adoption, or something else?"
    assert say_option("open a leave case", q, Phrasing(0)) == "I'd like to open a leave case."
    q = "I can open a ticket for you, or we can reset it now."
    assert say_option("we can reset it now", q, Phrasing(0)) == "Please reset it now."


def test_an_acronym_value_is_said_as_the_acronym_once() -> None:
    c = GoalCaller(make_scenario({"employee_id": "EMP-1", "pto_type": "pto", "pto_start_date": "2026-07-27"}))
    c.open()
    act = c.respond("Do you want to use general paid time off or sick leave?")
    assert "P T O." in act.text and "pto" not in act.text and "type is" not in act.text


def _booking() -> Scenario:
    return make_scenario({"confirmation_number": "IM2XU4", "first_name": "David", "last_name": "Okonkwo"})


def test_try_again_or_repeat_says_the_last_facts_again_not_yes() -> None:
    c = GoalCaller(_booking())
    c.open()
    c.respond("May I have your confirmation number and last name?")
    for turn in ("Can you try again?", "Sorry, could you repeat that?"):
        act = c.respond(turn)
        assert act.rule == "repeat_last_facts" and "I M two X U four" in act.text, act.text


def test_asked_to_spell_a_name_it_spells_it() -> None:
    c = GoalCaller(_booking())
    c.open()
    act = c.respond("Can you spell your last name?")
    assert "O K O N K W O" in act.text


def test_asked_an_identifier_it_lacks_it_offers_the_one_it_gave() -> None:
    c = GoalCaller(_booking())
    c.open()
    c.respond("May I have your confirmation number and last name?")
    act = c.respond("What is your flight number?")
    assert "flight number" in act.text and "I M two X U four" in act.text
    assert act.facts == ["confirmation_number"]


def test_a_unit_code_is_said_as_a_person_says_it() -> None:
    c = GoalCaller(make_scenario({"delivery_building": "Headquarters", "delivery_floor": "FL3"}))
    c.open()
    act = c.respond("Which building and floor should we deliver it to?")
    assert "floor 3" in act.text and "F L" not in act.text and "floor is floor" not in act.text


def test_a_yes_no_question_no_fact_answers_gets_not_sure() -> None:
    c = GoalCaller(_booking())
    c.open()
    act = c.respond("Are you on Wi-Fi right now on your work device?")
    assert act.rule == "not_sure_yes_no" and "information" not in act.text


def test_a_request_worded_as_a_yes_no_question_is_not_answered_not_sure() -> None:
    """'Could you tell me the desk code?' asks for something (live it.2): it has none, it says so."""
    c = GoalCaller(_booking())
    c.open()
    act = c.respond("Could you tell me the desk code, please?")
    assert act.rule != "not_sure_yes_no" and act.kind == "cannot_answer"


def test_asked_what_it_wants_with_no_fact_for_it_states_its_request() -> None:
    c = GoalCaller(make_scenario({"employee_id": "EMP-1"}, goal="You want parking in North Lot.",
                                 intents=["Get parking in North Lot"]))  # fmt: skip
    c.open()
    act = c.respond("Now let's handle parking. What parking area would you prefer?")
    assert act.rule == "wanted_asked_states_request" and "North Lot" in act.text
    other = c.respond("Which one would you like?")
    assert other.rule != "wanted_asked_states_request"


def test_a_word_that_only_qualifies_the_fact_asked_names_no_other_fact() -> None:
    c = GoalCaller(_booking())
    c.open()
    c.respond("May I have your confirmation number and last name?")
    act = c.respond(
        "I also need the last name to verify the booking. Could you say the last name on the reservation?"
    )
    assert "confirmation_number" not in act.facts and "Okonkwo" in act.text


def _pto() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP-1",
            "pto_type": "pto",
            "pto_start_date": "2026-07-24",
            "pto_end_date": "2026-07-31",
        },
        goal="You want to take paid time off from July 24 to July 31.",
        start="Hi, I need to request time off.",
    )


def test_a_type_chosen_by_its_options_words_is_a_choice_said_by_the_acronym() -> None:
    c = GoalCaller(_pto())
    c.open()
    act = c.respond("For those dates, would you like to use general paid time off or sick leave?")
    assert act.kind == "choose" and "P T O" in act.text and "July" not in act.text


def test_dates_asked_beside_the_type_are_still_given() -> None:
    c = GoalCaller(_pto())
    c.open()
    act = c.respond("What dates would you like off, and will you be using P T O or sick leave?")
    assert "July 24, 2026" in act.text and "July 31, 2026" in act.text


def _named_caller() -> Scenario:
    return make_scenario(
        {"confirmation_number": "6VORJU", "first_name": "Kenji", "last_name": "Thompson",
         "dependent_first_name": "Aiko", "dependent_last_name": "Thompson"},
        goal="You want to move your flight to an earlier one today.",
    )  # fmt: skip


def test_asked_its_name_without_first_or_last_it_gives_its_own_name_whole() -> None:
    """'Your full name', 'what name is the booking under': a person gives their name, though the
    agent said neither 'first' nor 'last' (live EVA airline call: it gave only the code)."""
    for question in (
        "Could you please provide your full name and confirmation number again?",
        "What is your name?",
        "Can I have the name on the reservation, please?",
    ):
        c = GoalCaller(_named_caller())
        c.open()
        act = c.respond(question)
        assert "Kenji Thompson" in act.text, question
        assert "Aiko" not in act.text, question  # another person's name parts are not its own


def test_a_name_field_named_by_its_words_is_not_widened() -> None:
    c = GoalCaller(_named_caller())
    c.open()
    act = c.respond("What is your dependent's first name?")
    assert "Aiko" in act.text and "Kenji" not in act.text


def test_an_invitation_to_go_on_gets_the_request_not_i_dont_have_that() -> None:
    """'I'm here, please go ahead.' / 'Can you provide me with more information?' name no fact:
    they invite the caller to say what it needs (live built-in it.3: 'I don't have that, sorry.')."""
    sc = make_scenario(
        {"employee_id": "EMP377145", "license": "Tableau Creator"},
        goal="Your Tableau Creator license expires soon and you want it renewed for another year.",
        start="Hi, I'd like to renew my Tableau license.",
    )
    for turn in (
        "I'm here, please go ahead.",
        "Can you please provide me with more information so I can help?",
    ):
        c = GoalCaller(sc)
        c.open()
        act = c.respond(turn)
        assert act.kind == "state_request", (turn, act)
        assert "Tableau" in act.text
    c = GoalCaller(sc)
    c.open()
    assert c.respond("I'll go ahead and renew it for you.").kind != "state_request"


def test_a_name_written_with_its_code_in_brackets_is_said_without_brackets() -> None:
    from voxbench.pipelines.caller.goal.speech import speak_value

    assert speak_value("Harbor Building (BLD2)") == "Harbor Building, B L D two"
    assert speak_value("Dr. Smith (cardiology)") == "Dr. Smith (cardiology)"  # prose, not a code


def test_a_goal_said_to_the_agent_is_in_the_first_person_and_addresses_it() -> None:
    from voxbench.pipelines.caller.goal.phrases import first_person

    said = first_person(
        "You want the agent to tell you his flight time, even though you don't have his confirmation number."
    )
    assert said == "I want you to tell me his flight time, even though I don't have his confirmation number."
    assert first_person("The agent should call you back.") == "You should call me back."


def test_a_request_pointing_back_asks_for_what_the_turn_named() -> None:
    """'... without your confirmation number or last name. Could you please provide that
    information?' asks for both (live EVA airline 7.4.1: 'Sorry, I don't have that information.')."""
    c = GoalCaller(_named_caller())
    c.open()
    act = c.respond(
        "I'm not sure how to proceed without your confirmation number or last name. "
        "Could you please provide that information so I can look it up for you?"
    )
    assert act.kind == "answer"
    assert "six V O R J U" in act.text and "Thompson" in act.text
    c = GoalCaller(_named_caller())
    c.open()
    assert c.respond("Hello! I'm here. Please let me know your request.").kind == "state_request"


def test_a_code_asked_is_not_a_preference_of_the_same_word() -> None:
    """'Please provide the desk code.' names no fact of a caller with only a desk preference (live
    it.2: it answered with its preference twice, then 'Okay.'); its preference is still its answer
    to 'What desk would you prefer?'."""
    c = GoalCaller(make_scenario({"employee_id": "EMP1234", "desk_preference": "near a window"}))
    c.open()
    act = c.respond("Please provide the desk code.")
    assert act.facts == [] and "window" not in act.text
    assert "window" in c.respond("Do you have a desk preference?").text


def test_a_name_asked_is_not_an_id_of_the_same_word() -> None:
    """'the employee's name' names no employee ID: 'name' is a head noun whose value is a name or
    text, never a code; asked so, the caller (the employee) gives its own name."""
    info = {"first_name": "Noah", "last_name": "Patel", "employee_id": "EMP098712"}
    for asked in ("Can you please provide me with the employee's name?", "What is the employee's full name?"):
        c = GoalCaller(make_scenario(info))
        c.open()
        act = c.respond(asked)
        assert act.facts == ["first_name", "last_name"] and "E M P" not in act.text, act.text
        assert "E M P" in c.respond("And what is your employee ID?").text
    other = GoalCaller(make_scenario({"employee_id": "EMP098712", "new_employee_name": "Ava Brown"}))
    other.open()
    assert other.respond("What is the employee's name?").facts == ["new_employee_name"]


def test_the_rest_of_a_cut_request_is_answered_with_it() -> None:
    """The recogniser cut an agent line in two: 'First, I need your' was answered 'Sorry, I missed
    the end of that.'; its rest, the next turn ('employee ID and the last four digits of your
    phone.'), is read with it: one request, answered with both facts (it was 'Alright.')."""
    info = {"first_name": "Noah", "employee_id": "EMP098712", "phone_last_four": "4517"}
    c = GoalCaller(make_scenario(info))
    c.open()
    assert c.respond("I can help with that. First, I need your").rule == "cut_request_asks_again"
    act = c.respond("employee ID and the last four digits of your phone.")
    assert act.facts == ["employee_id", "phone_last_four"], act.text
    c2 = GoalCaller(make_scenario({"first_name": "Noah", "employee_id": "EMP098712"}))
    c2.open()
    c2.respond("I can help with that. First, I need your")
    assert c2.respond("Thank you.").facts == []  # a turn of its own is not joined


def test_an_option_with_its_own_verb_does_not_take_the_questions_verb() -> None:
    """make run bb.2: 'Would you like to add a meal request or change your seat preference?' got
    'I'd like to add change my seat preference.'; 'use PTO or sick leave' still shares 'use'."""
    q = "Would you like to add a meal request or change your seat preference?"
    assert (
        say_option("change your seat preference", q, Phrasing(0)) == "I'd like to change my seat preference."
    )
    pto = "For those dates, would you like to use PTO or sick leave?"
    assert say_option("sick leave", pto, Phrasing(0)) == "I'd like to use sick leave."
