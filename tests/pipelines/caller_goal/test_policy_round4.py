"""Goal-caller decisions added in round 4, on small scenarios: a question about the caller's
requests of some kind, 'one at a time', a request said with what the goal's sentence ties to it."""

from __future__ import annotations

from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened


def _refresh() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP1",
            "laptop_size": "16_inch",
            "equipment_type": "ergonomic_chair",
            "delivery_building": "Headquarters",
            "delivery_floor": "FL3",
        },
        goal="You want a replacement laptop, and an ergonomic chair delivered to Headquarters floor 3.",
        intents=["Get a replacement laptop", "Get an ergonomic chair"],
    )


def test_a_question_about_its_requests_of_a_kind_lists_them() -> None:
    """'What equipment requests ...?' asks for the requests, not for the fact 'equipment_type'."""
    act = opened(_refresh()).respond(
        "Thanks, you're verified. What equipment requests do you need help with today?"
    )
    assert act.kind == "state_request"
    assert "replacement laptop" in act.text and "ergonomic chair" in act.text


def test_a_question_about_its_requests_with_a_request_lists_them_then_answers() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1", "application_name": "Confluence", "access_level": "read_only"},
        goal="You want to join the Database Read Access group and get read-only access to Confluence.",
        intents=["Join the Database Read Access group", "Get read-only access to Confluence"],
    )
    act = opened(sc).respond(
        "What access requests do you need help with? Please give me the application names and the access level."
    )
    assert act.text.startswith("I need to join the Database Read Access group")
    assert {"application_name", "access_level"} <= set(act.facts)


def test_one_at_a_time_asks_for_no_time() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1", "start_time": "09:00", "end_time": "10:30"},
        intents=["Set up accounts for my new team member", "Book a room for onboarding"],
    )
    act = opened(sc).respond(
        "What are the IT requests you'd like help with? Please give them to me one at a time."
    )
    assert (
        act.kind == "state_request"
        and "9 AM" not in act.text
        and not {"start_time", "end_time"} & set(act.facts)
    )


def test_a_request_is_said_with_the_place_its_goal_sentence_gives() -> None:
    """'... and an ergonomic chair delivered to Headquarters floor 3': stating that request, the
    caller says where it goes (the delivery facts), even if it said them for an earlier request."""
    c = opened(_refresh())
    c.given.update({"delivery_building", "delivery_floor"})
    act = c.respond("Your laptop request is submitted. Is there anything else I can help with?")
    assert act.kind == "state_request" and "ergonomic chair" in act.text
    assert "Headquarters" in act.text and "floor 3" in act.text
    assert {"delivery_building", "delivery_floor"} <= set(act.facts)


def test_a_goal_clause_with_a_backup_value_or_two_requests_gives_no_details() -> None:
    """The desk clause also names the backup floor (a fallback, said only when the agent offers
    another floor); a clause naming two requests ties its values to neither."""
    sc = make_scenario(
        {"building_name": "Headquarters", "floor": "FL2", "backup_desk_floor": "FL3", "employee_id": "EMP1"},
        goal="You want a desk at Headquarters, preferably floor 2 but floor 3 if floor 2 is unavailable.",
        intents=[
            "Get my account unlocked",
            "Get a desk on floor 2",
            "Get a desk on floor 3 as my backup choice",
        ],
    )
    act = opened(sc).respond("Your account is unlocked. What's the next thing you need help with?")
    assert (
        "desk on floor 2" in act.text and "F L three" not in act.text and "backup_desk_floor" not in act.facts
    )
    sc2 = make_scenario(
        {"license_product_name": "Adobe Creative Cloud", "license_product_name_renewal": "IntelliJ IDEA"},
        goal="You need a 30-day Adobe Creative Cloud trial and renewing your IntelliJ IDEA license.",
        intents=[
            "Get a 30-day Adobe Creative Cloud trial license",
            "Renew my expiring IntelliJ IDEA license",
        ],
    )
    act = opened(sc2).respond("Your Adobe trial is submitted. Anything else?")
    assert "IntelliJ" in act.text and "Adobe" not in act.text


def _onboarding() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP1",
            "completion_codes": {"ORIENTATION": "Q7M2", "BADGE_PICKUP": "B4K9", "TB_TEST": "T8P3"},
        },
        intents=["Mark onboarding tasks as complete"],
    )


def test_asked_for_the_code_it_gives_the_one_part_named_or_the_next() -> None:
    """A fact with named parts ('completion_codes': ORIENTATION, BADGE_PICKUP, TB_TEST): asked which
    first and its code, the first part; then the next; 'the code for your T B test', that one."""
    c = opened(_onboarding())
    act = c.respond("Which task would you like to mark complete first, and what is the completion code?")
    assert act.facts == ["completion_codes.ORIENTATION"] and "orientation completion code" in act.text
    assert c.respond("Orientation is marked complete. Which task next, and what is the code?").facts == [
        "completion_codes.BADGE_PICKUP"
    ]
    c2 = opened(_onboarding())
    assert c2.respond("What is the code for your T B test?").facts == ["completion_codes.TB_TEST"]


def test_a_question_naming_no_shared_word_asks_for_no_part() -> None:
    c = opened(_onboarding())
    act = c.respond("What date would you prefer for your orientation follow-up appointment?")
    assert not any(k.startswith("completion_codes") for k in act.facts)


def test_what_kind_of_request_is_an_open_question() -> None:
    sc = make_scenario(
        {
            "employee_id": "EMP1",
            "leave_category": "family_member_serious_illness",
            "family_relationship": "parent",
        },
        goal="You need to file FMLA leave to care for your parent, and you also want a few PTO days.",
        intents=["File FMLA leave for caregiving", "Request PTO days"],
    )
    for q in (
        "What kind of leave request do you need help with today?",
        "What leave-related help do you need today?",
    ):
        act = opened(sc).respond(f"You're verified now. {q}")
        assert act.kind == "state_request" and "FMLA" in act.text and "PTO" in act.text
        assert (
            "family_relationship" in act.facts
        )  # '... to care for your parent': the goal ties it to the leave


def test_which_first_picks_the_request_in_hand_and_says_it() -> None:
    """'What would you like to handle first, scheduling or payroll?': only 'payroll' names one of its
    requests, the one in hand: it takes that, and says the request."""
    sc = make_scenario(
        {"employee_id": "EMP1", "correction_type": "on_call_hours", "unit_code": "2D-SURG"},
        intents=[
            "Submit a payroll correction for incorrectly recorded on-call hours",
            "Swap an upcoming shift",
        ],
    )
    act = opened(sc).respond(
        "Thank you, you're verified. What would you like to handle first, scheduling or payroll?"
    )
    assert act.kind == "choose" and act.choice == "payroll" and act.rule == "option_is_next_request"
    assert act.text.startswith("Payroll, please. I need to submit a payroll correction")


def test_an_either_or_about_its_situation_is_not_a_choice_of_requests() -> None:
    """'Is the VPN completely refusing to connect, or ...?' shares words with its requests but asks
    no order: the options are not its requests, and the clause is said as a statement."""
    sc = make_scenario(
        {"employee_id": "EMP1"},
        goal="Your VPN is not working.",
        intents=["Skip troubleshooting and get a ticket created", "Get my VPN issue resolved"],
    )
    act = opened(sc).respond(
        "Is the VPN completely refusing to connect, or does it connect but then everything is slow?"
    )
    assert act.rule != "option_is_next_request"
    if act.choice == "completely refusing to connect":
        assert act.text.startswith("The VPN is completely refusing to connect.")


def _visa_leave() -> Scenario:
    return make_scenario(
        {"employee_id": "EMP1", "visa_petition_number": "QID9991312028", "pto_start_date": "2026-08-19"},
        intents=[
            "Add newborn as dependent to H-1B visa petition",
            "File FMLA bonding leave",
            "Request PTO days",
        ],
    )


def test_which_next_names_a_spelled_request_and_a_part_of_one() -> None:
    """'the P T O request before the leave' is the PTO request (its head, spelled); 'a visa, or
    immigration update' is one option the reader split in two: still a choice of its requests."""
    c = opened(_visa_leave())
    assert c.tracker.rank("the P T O request before the leave") == 2
    act = c.respond(
        "What would you like to take care of first: leave related to the birth, or a visa or immigration update?"
    )
    assert act.kind == "choose" and act.choice == "a visa" and "visa petition" in act.text


def test_an_offer_to_take_up_a_pending_request_gets_yes_and_the_request() -> None:
    c = opened(_visa_leave())
    act = c.respond("Your dependent was added. Would you like to complete the short P T O request now?")
    assert act.choice == "yes" and act.text.startswith("Yes. I need to request PTO days")
    assert act.rule == "offered_request_yes"


def test_both_when_its_list_fact_holds_each_option() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1", "privilege_codes": ["PRV-ICU-009", "PRV-SURG-009"]},
        intents=["Reactivate suspended clinical privileges"],
    )
    act = opened(sc).respond(
        "Which suspended privileges would you like to reactivate: the I C U privilege, the surgical privilege, or both?"
    )
    assert act.choice == "both" and act.rule == "option_both_in_facts"
    sc2 = make_scenario({"employee_id": "EMP1", "privilege_codes": ["PRV-ICU-009"]})
    act = opened(sc2).respond("Which would you like: the I C U privilege, the surgical privilege, or both?")
    assert act.choice != "both"


def test_a_refusal_still_about_the_refused_request_moves_to_the_next() -> None:
    """The visa request refused by name, then its follow-up spent: the agent's next refusal talks of
    'the petition number' only; the caller declines the transfer and states its next request."""
    sc = make_scenario(
        {"employee_id": "EMP1", "visa_petition_number": "OZH8122042835", "pto_type": "pto"},
        intents=["Add spouse as dependent to visa petition", "Request PTO for honeymoon"],
    )
    c = opened(sc)
    # asked to read it once more, the caller reads the petition number again (test_turn_classes)
    again = c.respond("I couldn't find a visa record under that petition number. Please read it once more.")
    assert again.kind == "answer" and again.facts == ["visa_petition_number"]
    assert c.respond("I still couldn't find a visa record under that petition number.").kind == "pushback"
    act = c.respond(
        "I can't proceed without a matching petition record. I can transfer you to a live agent. Would you like that?"
    )
    assert not act.ends_call and act.kind == "state_request" and "PTO for honeymoon" in act.text


def test_then_read_me_the_reference_code_is_a_request() -> None:
    """'..., then read me the diagnostic reference code it gives you.' after a completion asks for
    'diagnostic_ref_code' ('ref' is 'reference'); it is not the end of the call. '..., then tell me if
    that fixes it' stays a troubleshooting step."""
    sc = make_scenario(
        {"employee_id": "EMP1", "diagnostic_ref_code": "DIAG-4NB82VWK"}, intents=["Fix my Wi-Fi"]
    )
    act = opened(sc).respond(
        "Your network incident has been logged. One more required step before we finish: please run the "
        "network diagnostic tool, then read me the diagnostic reference code it gives you."
    )
    assert not act.ends_call and act.facts == ["diagnostic_ref_code"] and "D I A G" in act.text
    act = opened(sc).respond("Step three: please restart the laptop, then tell me if that fixes it.")
    assert act.kind == "report"


def test_the_date_of_the_request_in_hand() -> None:
    """'Now for the room booking, ... the building, the date, the start time': 'the date' is the
    meeting's, not the new hire's start date named by 'start' from 'the start time'."""
    sc = make_scenario(
        {
            "start_date": "2026-08-31",
            "meeting_date": "2026-08-28",
            "start_time": "10:00",
            "building_name": "HQ",
        },
        intents=["Set up accounts for my new team member", "Book a room for the transition meeting"],
    )
    c = opened(sc)
    c.done[0] = True
    act = c.respond("Now for the room booking, please give me the building, the date, and the start time.")
    assert "meeting_date" in act.facts and "start_date" not in act.facts


def test_offered_a_wider_search_it_names_its_fallback() -> None:
    sc = make_scenario(
        {"building_name": "Headquarters", "preferred_floor": "FL2", "fallback_floor": "FL3"},
        intents=["Book a room on floor 2", "Accept a room on floor 3 instead"],
    )
    act = opened(sc).respond(
        "There's nothing on F L two. Would you like me to check any floor in Headquarters instead?"
    )
    assert (
        act.text == "Yes, please check floor 3." and act.facts == ["fallback_floor"] and act.choice == "yes"
    )


def _three_items() -> Scenario:
    return make_scenario(
        {"employee_id": "EMP1", "clearance_code": "CLR-OCC-476096", "extension_type": "supervised"},
        intents=[
            "Reactivate suspended clinical privileges",
            "Request a temporary license extension",
            "Update malpractice coverage record",
        ],
    )


def test_the_requests_an_agent_offers_to_move_to_are_not_refused() -> None:
    """'I can't proceed with that item. We can move to your license extension or malpractice update.':
    only the privileges are refused; its follow-up spent, the caller takes up the next request."""
    c = opened(_three_items())
    c.respond(
        "The clearance code does not match, so I can't proceed with privilege reactivation right now. "
        "We can move to your license extension or malpractice update. Which would you like next?"
    )
    assert c.done == [True, False, False]
    act = c.respond(
        "I cannot proceed with reactivation until that code is validated. If you'd like, we can continue "
        "with your license extension or malpractice update now."
    )
    assert not act.ends_call and act.kind == "state_request" and "license extension" in act.text


def test_now_we_can_do_the_next_one_is_not_a_completion_of_it() -> None:
    c = opened(_three_items())
    c.done[0] = True
    act = c.respond(
        "Your license extension has been submitted. Now we can do the malpractice update. Please give me the carrier."
    )
    assert not act.ends_call and c.done == [True, True, False]


def test_limits_go_with_a_wanted_date_not_with_any_new_value() -> None:
    """Asked for its new facility code (a DEA transfer), it does not state its malpractice limits;
    asked for the new return date it wants, it states the limits of that change."""
    sc = make_scenario(
        {"new_facility_code": "FZ-17A", "per_occurrence_limit_usd": 1000000, "aggregate_limit_usd": 3000000}
    )
    act = opened(sc).respond("What is the new facility code?")
    assert act.facts == ["new_facility_code"]
    sc2 = make_scenario({"desired_return_date": "2026-08-23", "maximum_total_cost": 100})
    act = opened(sc2).respond("What new return date would you like?")
    assert "maximum_total_cost" in act.facts
