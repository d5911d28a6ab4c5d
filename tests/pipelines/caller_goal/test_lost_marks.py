"""A turn as a recogniser may write it, without question marks or commas: the caller hears the
question or the request all the same (``benchmarks/caller_asr_forms.py``, rules
``no_question_marks`` and ``no_commas``)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.asks import is_request
from voxbench.pipelines.caller.goal.marks import asked, restored

from .conftest import make_scenario, opened


def test_a_wh_question_is_a_question_without_its_mark() -> None:
    assert asked("What new return date would you like.") == "What new return date would you like?"
    assert asked("What is your employee ID.") == "What is your employee ID?"
    assert asked("What's the date of the appointment.") == "What's the date of the appointment?"
    assert asked("For Datadog access, what access level do you need.").endswith("?")
    assert asked("And should I use East Campus for delivery.").endswith("?")
    assert asked("First, may I have your last name.").endswith("?")
    assert asked("One quick question first: is the VPN refusing to connect.").endswith("?")


def test_a_tagged_or_verbless_question_is_a_question_without_its_mark() -> None:
    assert asked("You'd like to move it to March twenty-fifth, correct.").endswith("?")
    assert asked("Anything else I can help with today.").endswith("?")


def test_a_statement_keeps_its_full_stop() -> None:
    for s in (
        "What we can do is have you restart the router.",
        "What this means is that the fee is waived.",
        "I found your booking, which is on flight 621.",
        "Your desk is on floor 3, where the team sits.",
        "When you arrive, the desk will be ready.",
        "Your seat is confirmed.",
    ):
        assert asked(s) == s


def test_restored_keeps_what_lies_between_sentences() -> None:
    text = "Thanks, Ana. I found it.\n\nWhat date would you like."
    assert restored(text) == "Thanks, Ana. I found it.\n\nWhat date would you like?"


def test_a_request_after_a_lead_the_comma_closed_is_a_request_without_it() -> None:
    assert is_request("For the new hire setup please give me the new hire's employee ID.")
    assert is_request("Before I do that please tell me your preferred date.")
    assert is_request("Next for the departing employee access removal please give me the employee ID.")
    assert not is_request("Your request has been submitted and the approver was notified.")


def test_a_wh_question_without_its_mark_is_answered() -> None:
    c = opened(make_scenario({"desired_new_return_date": "2026-08-23"}))
    act = c.respond("I found your reservation. What new return date would you like.")
    assert act.kind == "answer" and act.facts == ["desired_new_return_date"]


def test_a_request_without_its_comma_is_answered() -> None:
    c = opened(make_scenario({"employee_id": "EMP091654"}))
    act = c.respond("Thanks. For the access change please give me your employee ID.")
    assert act.kind == "answer" and act.facts == ["employee_id"]


# -- what a request says besides what it asks ------------------------------------------------------

CODE_INFO = {"otp_code": "745414", "leave_type_on_record": "personal leave", "policy_number": "POL-2025-RJ"}


def test_a_purpose_clause_leading_a_request_names_no_fact() -> None:
    c = opened(make_scenario(CODE_INFO))
    act = c.respond(
        "Just so I can pull up the right record, please read me the six-digit code from the text."
    )
    assert act.facts == ["otp_code"]


def test_a_purpose_clause_names_the_fact_when_the_request_names_none() -> None:
    from voxbench.pipelines.caller.goal.requested import _without_purpose

    assert (
        _without_purpose("For verification purposes, what is your date of birth?")
        == "what is your date of birth?"
    )
    assert (
        _without_purpose("For the transfer, what is the reason?") == "For the transfer, what is the reason?"
    )


def test_a_head_noun_named_whole_is_not_borrowed_by_the_turn_s_other_words() -> None:
    c = opened(make_scenario(CODE_INFO))
    act = c.respond(
        "Our policy requires me to verify a few details first. Please read me the six-digit code from the text."
    )
    assert act.facts == ["otp_code"]


def test_a_field_named_by_a_head_the_caller_does_not_know_is_the_one_free_text_fact() -> None:
    from voxbench.pipelines.caller.goal.facts import goal_facts
    from voxbench.pipelines.caller.goal.fallbacks import unknown_head

    book = goal_facts({"transfer_reason": "role change", "transfer_effective_date": "2026-08-17"})
    ask = "Please give me the transfer justification and the effective date in year, month, day format."
    assert unknown_head(ask, book, {"transfer_effective_date"}) == [
        ("transfer_reason", "unknown_head:justification")
    ]
    assert unknown_head("Please give me the transfer date.", book, set()) == []  # a head it knows
    assert unknown_head("Your transfer justification is on file.", book, set()) == []  # asks nothing
    c = opened(make_scenario({"transfer_reason": "role change", "transfer_effective_date": "2026-08-17"}))
    act = c.respond(ask)
    assert set(act.facts) == {"transfer_reason", "transfer_effective_date"}


def test_dotted_capitals_are_one_word_that_ends_no_sentence() -> None:
    assert restored("Please give me the shift I.D. for the shift you want to swap.") == (
        "Please give me the shift ID for the shift you want to swap."
    )
    assert restored("What is your I.D.") == "What is your ID?"
    assert restored("Your I.D. Then we can go on.") == "Your ID. Then we can go on."
    c = opened(make_scenario({"employee_id": "EMP821590", "date_of_birth": "1991-02-14"}))
    act = c.respond("First, please provide your employee I.D. and date of birth.")
    assert set(act.facts) == {"employee_id", "date_of_birth"}
