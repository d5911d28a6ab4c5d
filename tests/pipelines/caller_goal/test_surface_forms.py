"""Surface forms that keep a turn's meaning keep the caller's reply (found by the invariance bench,
``benchmarks/caller_invariance.py``): a contraction in either form, 'the' for 'your' in a consent
question or a read-back, "could you confirm" for "please confirm", service talk after a hold, a
marked option cut at its sentence's end."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.lang import alt, either_form
from voxbench.pipelines.caller.goal.options import offered_options
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.scenarios import Scenario

from .conftest import opened


def test_a_phrase_hears_a_contraction_in_either_form() -> None:
    assert re.fullmatch(either_form("i can't help"), "i cannot help")
    assert re.fullmatch(either_form("i can't help"), "i can not help")
    assert re.fullmatch(either_form(r"\bdo not (have|know)"), "don't know")
    assert re.fullmatch(either_form("I am sorry"), "I'm sorry")  # its capital kept
    assert not re.fullmatch(either_form("this is not"), "th isn't")  # only a whole word is a form


def test_a_form_a_look_behind_cannot_take_is_left() -> None:
    assert either_form(r"(?<!it is )x") == r"(?<!it is )x"


def test_the_tables_alternations_hear_both_forms() -> None:
    """A table entry written with a contraction is heard in either form, and the tables still
    hear what they were written for."""

    def hears(name: str, text: str) -> bool:
        return re.search(rf"\b(?:{alt('cues', name)})\b", text, re.I) is not None

    assert hears("service_talk", "I'm happy to help with that.") and hears(
        "service_talk", "I am happy to help."
    )
    assert hears("readback_cue", "Just to confirm, I have you down for Friday.")
    assert hears("confirm_lead", "Could you please confirm the date?")
    assert not hears("service_talk", "Your laptop has been shipped.")


def test_consent_asked_with_the_is_a_confirm_question(itsm: Scenario) -> None:
    for det in ("your", "the"):
        c = opened(itsm)
        act = c.respond(
            f"I'm ready to book the room for October fifteenth. Do I have {det} approval to submit that?"
        )
        assert act.kind == "confirm" and act.choice == "yes", (det, act)


def test_a_readback_with_the_is_a_readback(itsm: Scenario) -> None:
    book = goal_facts(itsm.user_goal.information_required, itsm.seed_data)
    for det in ("your", "the"):
        h = classify(
            f"Thank you. I have {det} employee ID as E M P zero four eight two seven one. Is that right?",
            book,
        )
        assert h.readback_ok == ["employee_id"] and h.has("confirm_question"), det


def test_service_talk_after_a_hold_still_holds(airline: Scenario) -> None:
    book = goal_facts(airline.user_goal.information_required, airline.seed_data)
    for tail in (
        "",
        " Thanks for your patience.",
        " I appreciate your patience.",
        " I'm happy to help with that.",
    ):
        h = classify(f"Let me check the available flights.{tail}", book)
        assert h.has("hold"), tail
    c = opened(airline)
    assert c.respond("One moment while I look that up. Thank you for your patience.").kind == "wait"


def test_service_talk_does_not_make_a_question_a_hold(airline: Scenario) -> None:
    book = goal_facts(airline.user_goal.information_required, airline.seed_data)
    assert not classify("Let me check. What is your last name? Thanks for your patience.", book).has("hold")


def test_a_marked_option_ends_with_its_sentence() -> None:
    for text in (
        "Licenses are available for thirty, sixty, or ninety days. You need a Figma license. Which duration?",
        "You need a Figma license. Licenses are available for thirty, sixty, or ninety days. Which duration?",
    ):
        t = Turn.of(text)
        opts = offered_options(t.sents, t.questions[-1])
        assert opts[-1] == "ninety days", (text, opts)


def test_a_modal_confirm_is_please_confirm(airline: Scenario) -> None:
    for lead in ("Please confirm", "Could you confirm", "Would you please confirm"):
        c = opened(airline)
        act = c.respond(
            f"I can move you to the one PM direct flight for a fee of fifty dollars. {lead} you approve the change."
        )
        assert act.kind == "confirm" and act.choice == "yes", (lead, act)
