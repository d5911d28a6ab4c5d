"""What the goal caller does with what comes beside a completion report while another request is
open (:mod:`voxbench.pipelines.caller.goal.moveon`), and with an agent that says the same thing
that brings nothing again and again (:class:`voxbench.pipelines.caller.goal.stall.Stalls`)."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller

_INTENTS = ["Get a replacement laptop", "Get a standing desk converter", "Book a conference room for Friday"]


def _caller(seed: int = 0) -> GoalCaller:
    sc = make_scenario({"employee_id": "EMP031482"}, goal="You have three requests.", intents=_INTENTS,
                       start="Hi, I have a few things I need help with today.")  # fmt: skip
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    return c


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "offer",
    [
        "Before we go on, can I set up automatic payment reminders?",
        "Would you like me to sign you up for text message alerts as well?",
    ],
)
def test_an_offer_beside_a_report_is_declined_and_the_next_request_said(seed: int, offer: str) -> None:
    c = _caller(seed)
    act = c.respond(f"I've taken care of that: your request to get a replacement laptop is done. {offer}")
    assert not act.ends_call and act.choice in ("", "no") and act.text.startswith("No")
    assert "standing desk converter" in act.text and c.done[0]


def test_an_offer_with_nothing_reported_is_only_declined() -> None:
    c = _caller()
    act = c.respond("Before we go on, can I set up automatic payment reminders?")
    assert not act.ends_call and "desk" not in act.text and not any(c.done)


@pytest.mark.parametrize(
    "question",
    ["Do you have any questions about that?", "Is there anything about that you'd like me to explain?"],
)
def test_questions_about_a_report_are_anything_else(question: str) -> None:
    c = _caller()
    act = c.respond(f"Done. I've processed your request to get a replacement laptop. {question}")
    assert act.rule == "next_intent" and "standing desk converter" in act.text


def test_all_done_after_the_first_request_goes_on_to_the_next() -> None:
    c = _caller()
    c.respond("Hello, thank you for calling. How can I help you today?")
    act = c.respond("All done, that's been taken care of. Is there anything else I can help you with?")
    assert not act.ends_call and "standing desk converter" in act.text


def test_a_report_in_the_contracted_perfect_is_a_completion() -> None:
    c = _caller()
    act = c.respond("Your laptop replacement's been submitted. What else can I help you with?")
    assert c.done[0] and "standing desk converter" in act.text


@pytest.mark.parametrize(
    "said",
    ["I hear you, and I appreciate your patience with this.", "Okay, I see. Thank you for explaining that."],
)
def test_the_same_statement_again_and_again_ends_as_a_stall(said: str) -> None:
    c = _caller()
    acts = [c.respond(said) for _ in range(8)]
    assert not any(a.ends_call for a in acts[:2])
    ended = [a for a in acts if a.ends_call]
    assert ended and ended[0].end_reason == "stalled"


def test_holds_stay_neutral_the_same_or_in_other_words() -> None:
    """A hold is said before each of an agent's tool calls: waited on, never a stall (the live
    driver checks in on the silence after it)."""
    c = _caller()
    holds = ["One moment please.", "Let me check on that for you.", "Still looking, thanks for waiting.",
             "Let me pull up your record.", "Just a moment while I look.", "Let me see what I can find.",
             "One more moment please.", "Let me check one more thing."]  # fmt: skip
    assert not any(c.respond(h).ends_call for h in holds + ["One moment please."] * 8)
