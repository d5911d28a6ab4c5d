"""Asks in any wording (issue 29): option leads, pronoun asks, plural list asks, "what else?"."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened


def _sc() -> Scenario:
    return make_scenario(
        {
            "confirmation_number": "ZK3FFW",
            "last_name": "Lima",
            "guest_names": ["Ana Lima", "Bo Chen"],
            "module_codes": ["CS101", "MA202"],
            "claim_numbers": ["CL4471", "CL9920"],
            "ticket_ids": ["TK-100", "TK-220"],
            "npi": "1234567890",
            "dietary_restriction": "no shellfish",
        },
        goal="You want to book a training day for your guests.",
    )


def _caller() -> GoalCaller:
    return opened(_sc())


def test_an_option_lead_offers_options_as_a_question_does() -> None:
    for turn, options in (
        ("Let me know if you'd want the lunch or the dinner sitting.", ("lunch", "dinner")),
        ("Just tell me whether you need the red or the green badge.", ("red", "green")),
        ("Please advise if you prefer the early or the late session.", ("early", "late")),
    ):
        act = _caller().respond(turn)
        assert sum(o in act.choice for o in options) == 1, (turn, act.choice)
        assert "know" not in act.text and "tell" not in act.text


def test_an_invitation_to_ask_offers_no_options() -> None:
    act = _caller().respond("Let me know if you have any questions or concerns.")
    assert act.choice == ""


def test_a_pronoun_question_asks_what_the_sentence_before_named() -> None:
    act = _caller().respond("You said there are claim numbers. What were they?")
    assert act.facts == ["claim_numbers"]
    act = _caller().respond("There is a confirmation number on the booking. Could you tell me what it is?")
    assert act.facts == ["confirmation_number"]


def test_a_pronoun_takes_no_fact_of_another_thing_named_before() -> None:
    # the caller's own NPI is not the physician's; a fact whose key words are not all said is none
    assert _caller().respond("You listed an attending physician NPI. What is it?").facts == []
    assert _caller().respond("There is a guest contact number. What is it?").facts == []
    assert _caller().respond("You said there is your NPI. What is it?").facts == ["npi"]


def test_a_pronoun_in_a_yes_no_question_asks_nothing() -> None:
    act = _caller().respond("You mentioned claim numbers. Are they both open?")
    assert act.facts == []
    act = _caller().respond("You mentioned a booking. What is it regarding?")  # a word of its own
    assert "claim_numbers" not in act.facts


def test_the_plural_of_a_lists_items_asks_the_whole_list() -> None:
    act = _caller().respond("Which modules will you attend?")
    assert act.facts == ["module_codes"]
    act = _caller().respond("So, who are the guests?")
    assert act.facts == ["guest_names"]


def test_a_list_keyed_by_ids_is_asked_by_its_items_plural() -> None:
    assert _caller().respond("Which tickets are open for you?").facts == ["ticket_ids"]


def test_a_singular_or_a_count_of_the_items_asks_no_list() -> None:
    assert "module_codes" not in _caller().respond("Which module will you attend?").facts
    assert "guest_names" not in _caller().respond("How many guests will come?").facts
    assert "guest_names" not in _caller().respond("Are the guests staying overnight?").facts


def test_what_else_after_a_check_is_an_anything_else() -> None:
    for turn in ("What else?", "Okay, what more is there?", "Noted. Is there something further?"):
        c = _caller()
        c.respond("Can you confirm your last name is Lima?")
        act = c.respond(turn)
        assert "anything_else" in act.heard, turn
        assert "don't have" not in act.text and "don't know" not in act.text


def test_more_about_a_named_topic_is_no_anything_else() -> None:
    for turn in (
        "Is there anything further you'd like to add about your dietary restriction?",
        "Do you have something more to tell me regarding why you want to book the day?",
        "Anything more on the claim numbers?",
    ):
        act = _caller().respond(turn)
        assert "anything_else" not in act.heard, turn
    assert _caller().respond("Anything more on the claim numbers?").facts == ["claim_numbers"]
    said = _caller().respond("Is there anything further you'd like to add about your dietary restriction?")
    assert said.facts == ["dietary_restriction"]


def test_what_else_after_another_question_asks_more_of_it() -> None:
    act = _caller().respond("Which modules will you attend? What else?")
    assert "anything_else" not in act.heard and act.facts == ["module_codes"]


def test_a_bare_more_question_is_an_anything_else() -> None:
    for turn in ("Is there anything more I can help you with today?", "Okay. Anything further for you?"):
        assert "anything_else" in _caller().respond(turn).heard, turn


def _two_tools() -> GoalCaller:
    return opened(
        make_scenario(
            {"employee_id": "EMP1", "tool_name_1": "Jira", "tool_name_2": "Slack"},
            goal="You need access to Jira and to Slack.",
            intents=["Get Jira access", "Get Slack access"],
        )
    )


def test_a_plural_noun_asks_the_facts_of_requests_to_come_too() -> None:
    assert set(_two_tools().respond("Which tools do you need?").facts) >= {"tool_name_1", "tool_name_2"}
    assert "tool_name_2" not in _two_tools().respond("Which tool do you need first?").facts


def test_items_offered_to_choose_among_are_no_plural_ask() -> None:
    act = _caller().respond("Which modules would you like: the first module, the second module, or both?")
    assert "module_codes" not in act.facts and act.choice


def test_a_plural_the_request_in_hand_answers_reaches_no_further() -> None:
    c = opened(
        make_scenario(
            {
                "employee_id": "EMP1",
                "policy_effective_date": "2026-08-10",
                "policy_expiration_date": "2027-08-10",
                "transfer_effective_date": "2026-08-17",
            },
            goal="You need your policy dates updated, then a transfer recorded.",
            intents=["Update my policy", "Record my transfer"],
        )
    )
    act = c.respond("Please give me the policy effective and expiration dates.")
    assert "transfer_effective_date" not in act.facts
