"""The agent-turn classifier: fact requests by the scenario's own field names, and the other kinds."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.scenarios import Scenario

from .conftest import make_scenario


def _book(sc: Scenario):  # type: ignore[no-untyped-def]
    return goal_facts(sc.user_goal.information_required, sc.seed_data)


def test_request_for_two_facts(itsm: Scenario) -> None:
    h = classify(
        "First, I need to verify your identity. Please give me your employee I D, and the last four digits "
        "of your phone number on file.",
        _book(itsm),
    )
    assert h.has("request")
    assert h.asked == ["employee_id", "phone_last_four"]


def test_request_words_from_the_rest_of_the_turn(itsm: Scenario) -> None:
    h = classify("Got it. Where should we deliver it? Please give me the building and floor.", _book(itsm))
    assert set(h.asked) == {"delivery_building", "delivery_floor"}


def test_head_noun_alone_means_the_one_fact_not_given(itsm: Scenario) -> None:
    h = classify("To book the room, I need the building, the date and the start time.", _book(itsm))
    assert "meeting_date" in h.asked and "start_time" in h.asked


def test_readback_right_and_wrong(airline: Scenario) -> None:
    book = _book(airline)
    ok = classify("I found reservation Z K three F F W. Is that correct?", book)
    assert ok.readback_ok == ["confirmation_number"] and ok.has("confirm_question")
    wrong = classify("I have Z K three F F M. Is that correct?", book)
    assert wrong.readback_wrong == ["confirmation_number"]


def test_options_hold_transfer_completed_goodbye(airline: Scenario) -> None:
    book = _book(airline)
    assert classify("Would you like a window or an aisle seat?", book).options == [
        "a window",
        "an aisle seat",
    ]
    assert classify("One moment please.", book).kinds == ["hold"]
    # "Please ..." is not a request for a fact when what follows is a hold (live bb.1: the
    # caller answered "I don't have that, sorry." and its words cancelled the agent's tool turn)
    holds = ("Please hold on a moment.", "Please wait for a second.", "Okay. Hold on one moment please.",
             "Please hold on while I do that.", "Please wait while I'm checking the system.")  # fmt: skip
    for hold in holds:
        assert classify(hold, book).kinds == ["hold"], hold
    # an indirect open question (live bb.3: answered "Sorry, I don't have that information.")
    for open_q in ("Could you please let me know what you need?", "Tell me how I can help."):
        assert classify(open_q, book).has("open_question"), open_q
    assert not classify("Here is what you need to know.", book).has("open_question")
    # 'Please.' cut off a request by the recogniser is no request of its own (live bb.2)
    assert classify("Please. I found your reservation.", book).kinds == ["statement"]
    assert classify("Let me check that for you.", book).has("hold")
    assert classify("Transferring you to a live agent. Please wait.", book).has("transfer")
    assert classify("I can transfer you to a live agent. Would you like that?", book).has("transfer_offer")
    done = classify(
        "You're all set. Your seat has been assigned. Is there anything else I can help with?", book
    )
    assert done.has("completed") and done.has("anything_else")
    assert classify("Thanks for calling. Goodbye.", book).has("goodbye")


def test_llm_hook_is_off_by_default_and_only_chooses(airline: Scenario) -> None:
    book = _book(airline)
    text = "Which spelling of the name do you use?"  # no fact named by its words ("What name ...?" now is)
    assert classify(text, book).asked == []

    class Picker:
        name = "fake"

        def __init__(self) -> None:
            self.seen: list[str] = []

        def choose(self, question: str, choices: list[str]) -> int | None:
            self.seen = choices
            return choices.index("last name")

    hook = Picker()
    h = classify(text, book, hook=hook)
    assert h.asked == ["last_name"]
    assert hook.seen[-1].startswith("none of these") and "confirmation number" in hook.seen
    assert any("llm:fake" in r for r in h.rules)


def test_a_number_word_in_spelled_digits_names_no_fact(itsm: Scenario) -> None:
    """'phone_last_four' ends in 'four'; 'two eight four seven' is a tag said digit by digit."""
    book = _book(itsm)
    h = classify(
        "Please return your laptop, asset tag A S T, two eight four seven one nine, by May fourth.", book
    )
    assert "phone_last_four" not in h.asked
    assert classify("What are the last four digits of your phone?", book).asked == ["phone_last_four"]


def test_the_backup_fact_only_when_the_agent_asks_for_another() -> None:
    sc = make_scenario(
        {"building_name": "Headquarters", "floor": "FL2", "backup_desk_floor": "FL3"},
        intents=["Get a desk on floor 2", "Get a desk on floor 3 instead"],
    )
    book = _book(sc)
    first = classify("Now let's move to the desk request. What building and floor would you prefer?", book)
    assert set(first.asked) == {"building_name", "floor"}
    other = classify(
        "I can check other floors in Headquarters. Which floor would you like me to try first?", book
    )
    assert other.asked == ["backup_desk_floor"]


def test_a_turn_naming_one_numbered_group_asks_about_that_group() -> None:
    """'Is Confluence an access request, a new license, or a renewal?' is a choice, not a request for
    the application name; 'what access level' then means Confluence's ('..._1'), not Datadog's."""
    sc = make_scenario(
        {
            "application_name_1": "Confluence",
            "access_level_1": "read_only",
            "application_name_2": "Datadog",
            "access_level_2": "standard",
            "license_product_name": "IntelliJ IDEA",
        }
    )
    h = classify(
        "Got it. Is Confluence an application access request, a new license request, or a license renewal? "
        "And what access level do you need: read only, standard, or admin?",
        _book(sc),
    )
    assert h.asked == ["access_level_1"] and h.options == ["read only", "standard", "admin"]


def test_requests_after_a_lead_and_facts_read_back_whole() -> None:
    """'Then give me the PIN', 'Now for your license request, please read me ...' are requests;
    'the facility code' does not also ask for 'privilege_codes'; a limit read back whole ('the per
    occurrence limit as two million dollars') is not the half-heard number of the one asked."""
    sc = make_scenario(
        {
            "facility_code": "GAWO-88H",
            "pin": "2035",
            "privilege_codes": ["PRV-ECHO-005"],
            "state_license_number": "NY-MD-31614326",
            "per_occurrence_limit_usd": 2000000,
            "aggregate_limit_usd": 6000000,
        }
    )
    book = _book(sc)
    h = classify(
        "Please read your home facility code again. Then give me the four digit PIN again as well.", book
    )
    assert h.asked == ["facility_code", "pin"]
    h = classify(
        "Thanks. Now for your license request, please read me the state license number slowly.", book
    )
    assert h.asked == ["state_license_number"]
    h = classify(
        "I have the per occurrence limit as two million dollars. Please give me the aggregate limit.", book
    )
    assert h.asked == ["aggregate_limit_usd"]
    assert classify("And will you be using general paid time off or sick leave?", book).options == [
        "general paid time off",
        "sick leave",
    ]


def test_whose_fact_is_asked_by_the_request_in_hand_and_the_person() -> None:
    """'the effective date' in the DEA transfer is the transfer's; 'the date of birth' after the
    caller gave its own is the dependent's; 'What is the shift ID?' after 'the payroll problem' is
    about the payroll shift; 'your NPI again only if it's different' asks nothing already given."""
    sc = make_scenario(
        {
            "date_of_birth": "1990-01-02",
            "npi": "2595467139",
            "dependent_date_of_birth": "2023-11-14",
            "dea_transfer_effective_date": "2026-07-06",
            "malpractice_effective_date": "2026-07-01",
            "shift_date": "2026-08-03",
            "payroll_shift_date": "2026-06-15",
        }
    )
    book = _book(sc)
    h = classify("Please give me the effective date.", book, focus={"dea_transfer_effective_date"})
    assert h.asked == ["dea_transfer_effective_date"]
    h = classify("Please give me the relationship and the date of birth.", book, given={"date_of_birth"})
    assert h.asked == ["dependent_date_of_birth"]
    h = classify("Let's start with the payroll problem. What is the shift ID?", book)
    assert h.asked == ["payroll_shift_date"]
    h = classify(
        "I'll also need your NPI again only if it's different from the one we verified.", book, given={"npi"}
    )
    assert "npi" not in h.asked


def test_which_of_its_own_values_and_the_subject_in_hand() -> None:
    """'I see PRV-SURG-008 and PRV-ICU-008. Which of those would you like?' asks for its own list;
    'Your payroll correction has been submitted. Now the swap: what is the shift ID?' is not about
    the payroll shift any more."""
    sc = make_scenario(
        {
            "privilege_codes": ["PRV-SURG-008", "PRV-ICU-008"],
            "shift_date": "2026-08-03",
            "payroll_shift_date": "2026-06-15",
        }
    )
    book = _book(sc)
    h = classify(
        "I see two suspended privileges: P R V SURG zero zero eight, and P R V I C U zero zero eight. "
        "Which of those would you like to reactivate?",
        book,
    )
    assert h.asked == ["privilege_codes"]
    h = classify(
        "Your payroll correction has been submitted. Now let's do the shift swap. What is the shift ID?", book
    )
    assert h.asked == ["shift_date"]
