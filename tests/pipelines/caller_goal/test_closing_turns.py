"""What the goal caller does around the agent's last report: 'Will that be all?' (a yes ends the
call, a no leads what is still open), reports of several requests in one formula (each moves the
call on: no goodbye as if the agent repeated itself), an alternative stated before a vague 'Would
that work?' (declined when its goal never names it), a forbidden transfer offered again (declined
in the goodbye, never 'Perfect, thanks')."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

INTENTS = ["Swap my shift with a colleague", "Register for on-call availability", "Update my badge photo"]


def _caller(seed: int = 0, intents: list[str] | None = INTENTS) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "unit_code": "5B-PEDS"},
        goal="You want to swap a shift, register for on-call availability and update your badge photo.",
        intents=intents,
        start="Hi, I have a few things.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "ask",
    [
        "Will that be all for today?",
        "Is that everything you needed today?",
        "Does that take care of everything?",
    ],
)
def test_that_all_with_everything_done_is_a_yes_and_goodbye(seed: int, ask: str) -> None:
    c = _caller(seed, ["Swap my shift with a colleague"])
    act = c.respond(f"Your shift swap has been submitted. {ask}")
    assert act.ends_call and act.text.startswith("Yes") and act.rule == "nothing_else_end"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_that_all_with_a_request_open_is_a_no_and_the_request(seed: int) -> None:
    act = _caller(seed).respond("Your shift swap has been submitted. Will that be all for today?")
    assert not act.ends_call and act.text.startswith("No") and "on-call" in act.text


def test_is_that_all_correct_is_still_a_confirmation() -> None:
    act = _caller().respond(
        "I have your employee ID as E M P eight two four one five six. Is that all correct?"
    )
    assert not act.ends_call and act.kind == "confirm"


@pytest.mark.parametrize("seed", [0, 1])
def test_formulaic_reports_of_other_requests_each_move_the_call_on(seed: int) -> None:
    c = _caller(seed)
    acts = [c.respond(f"Done. I've processed your request to {r}. What else can I help you with?")
            for r in ("update your badge photo", "register for on-call availability")]  # fmt: skip
    assert not any(a.ends_call for a in acts) and all("swap" in a.text.lower() for a in acts)
    last = c.respond("Done. I've processed your request to swap your shift. What else can I help you with?")
    assert last.ends_call and last.end_reason == "resolved"


def test_the_same_turn_again_with_nothing_moved_on_still_ends() -> None:
    c = _caller()
    c.respond("Done. I've processed your request to update your badge photo. What else can I help you with?")
    c.respond("Done. I've processed your request to update your badge photo. What else can I help you with?")
    act = c.respond(
        "Done. I've processed your request to update your badge photo. What else can I help you with?"
    )
    assert act.ends_call


@pytest.mark.parametrize(
    "turn",
    [
        "Unfortunately I can't swap your shift. What I can do is set up a newsletter subscription for you. "
        "Would that work?",
        "I'm sorry, I'm not able to swap your shift, but I can submit a parking survey for you instead. "
        "Would you like me to do that?",
    ],
)
def test_an_alternative_outside_the_goal_stated_before_a_vague_offer_is_declined(turn: str) -> None:
    act = _caller().respond(turn)
    assert act.choice == "no" and not act.ends_call and not act.text.startswith("Yes")


def test_an_alternative_the_goal_names_is_not_declined_as_outside() -> None:
    act = _caller().respond("I can't swap that shift, but I can register you for on-call availability instead. "
                            "Would that work?")  # fmt: skip
    assert act.rule != "offer_outside_goal"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_forbidden_transfer_offered_again_is_declined_in_the_goodbye(seed: int) -> None:
    c = _caller(seed, ["Swap my shift with a colleague"])
    offer = "I'm sorry, I'm not able to swap your shift. Would you like me to transfer you to a live agent?"
    first = c.respond(offer)
    assert not first.ends_call and first.choice != "yes"
    again = c.respond(offer)
    assert again.ends_call and again.choice == "no"
    assert again.text.startswith("No") and "transfer" in again.text


def test_an_escalation_rule_asking_for_a_supervisor_or_live_agent_accepts_the_offer() -> None:
    sc = make_scenario(
        {"employee_id": "EMP824156"},
        intents=["Swap my shift with a colleague"],
        escalation="If the agent cannot swap the shift, ask once to speak to a supervisor/live agent for review.",
    )
    c = GoalCaller(sc)
    c.open()
    act = c.respond("I can't swap that shift from here, but I can offer to transfer you to a live agent.")
    assert act.rule == "escalation_accepts_transfer" and not act.ends_call


def test_there_is_no_charge_is_no_refusal() -> None:
    from voxbench.pipelines.caller.goal.classify import classify

    sc = make_scenario({"employee_id": "EMP824156"})
    book = GoalCaller(sc).book
    assert not classify("There is no charge for being added to standby.", book).has("denial")
    assert classify("There is no seat left on that flight.", book).has("denial")


def test_a_must_have_with_a_clock_time_is_asked_whole() -> None:
    from voxbench.pipelines.caller.goal.agenda import MustHave

    m = MustHave(
        "You are added to the standby list for the 12:00 PM flight and the agent confirms it.", set()
    )
    assert m.as_question().endswith(" PM flight?")  # not cut at the clock's colon ("... for the 12?")
