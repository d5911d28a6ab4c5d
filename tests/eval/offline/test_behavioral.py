"""Offline user_behavioral_fidelity on hand-made calls: a caller inventing a booking code,
asking for a supervisor it was told not to, or hanging up mid-task fails; a clean caller passes."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline import rate_offline
from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, call, context, lookup, result

GOAL: dict[str, Any] = {
    "high_level_user_goal": "Cancel your flight and get a refund.",
    "decision_tree": {
        "must_have_criteria": ["Refund of $260 to the original payment."],
        "escalation_behavior": "Do not ask to speak to a supervisor or live agent. If the agent offers to "
        "transfer you to a live agent, you must decline.",
    },
    "information_required": {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez"},
}


def _ctx(events: list[dict[str, Any]], **kw: Any):
    return context(
        events, user_goal=GOAL, conversation_ended_reason="end_call", simulator_ended_call=True, **kw
    )


def _clean() -> list[dict[str, Any]]:
    return [
        *lookup(),
        U("Yes, please cancel it."),
        call("cancel_reservation", confirmation_number="ZK3FFW"),
        result("cancel_reservation", {"status": "success", "refund_amount": 260}),
        A("Done, two hundred sixty dollars goes back to your card. Anything else?"),
        U("No, that's all. Goodbye."),
    ]


def test_clean_caller_passes() -> None:
    res = user_behavioral_fidelity_offline(_ctx(_clean()))
    assert res.score == 1.0 and res.details["detected"] == []


def test_invented_booking_code_fails() -> None:
    events = _clean()
    events[1] = U("I want to cancel my flight. My confirmation code is Q X seven P L M, last name Rodriguez.")
    res = user_behavioral_fidelity_offline(_ctx(events))
    assert res.score == 0.0 and res.normalized_score == 0.0
    assert "invented_information" in res.details["detected"]
    assert any("qx7plm" in e["claim"] for e in res.details["evidence"])


def test_repeating_what_the_agent_said_is_not_invented() -> None:
    events = _clean()
    events[5] = U("Yes, cancel flight S K four one two please.")  # the agent read SK412 out before
    assert user_behavioral_fidelity_offline(_ctx(events)).score == 1.0


def test_forbidden_escalation_fails() -> None:
    events = _clean()
    events[5] = U("I want to speak to a supervisor right now.")
    res = user_behavioral_fidelity_offline(_ctx(events))
    assert res.score == 0.0 and "decision_tree_violation" in res.details["detected"]


def test_hanging_up_while_the_agent_progresses_fails() -> None:
    events = [*lookup(), U("Never mind, goodbye.")]
    res = user_behavioral_fidelity_offline(_ctx(events))
    assert res.score == 0.0 and "premature_ending" in res.details["detected"]
    # the same hang-up after the agent reported it cannot help is the agent's failure, not the caller's
    events[-2] = A("Sorry, I am unable to cancel this booking due to a technical error.")
    assert user_behavioral_fidelity_offline(_ctx(events)).score == 1.0


def test_registered_for_the_gate() -> None:
    res = rate_offline("user_behavioral_fidelity", _ctx(_clean()))
    assert res is not None and res.params["method"] == "offline:caller-rules" and res.value == 1.0


def test_declining_an_extra_offer_is_not_a_premature_ending() -> None:
    """EVA's sample 1.1.2 ends this way: the agent offers extras, the caller says no and bye."""
    events = [
        *lookup(),
        A("Do you want to add a checked bag, or request a special meal?"),
        U("No, I do not want to add anything else. Thanks for your help, bye."),
    ]
    assert user_behavioral_fidelity_offline(_ctx(events)).score == 1.0
    # leaving without answering a request for information is still premature
    events[-2] = A("Could you tell me the new date you want to fly?")
    events[-1] = U("Never mind, bye.")
    assert user_behavioral_fidelity_offline(_ctx(events)).score == 0.0


def test_leaving_an_agent_that_loops_on_one_question_is_not_premature() -> None:
    """Live make run, bb.2 with the 1.5B agent: 'Could you tell me the confirmation number,
    please?' a fourth time after three answers; the caller said goodbye. The agent was looping
    (EVA's caller ends after 5 unhelpful turns), so the simulation is valid."""
    ask = "Could you tell me the confirmation number, please?"
    events = [A("Hello! How can I help you today?"), U("Hi, I need to cancel my flight.")]
    for _ in range(3):
        events += [A(f"Please wait a moment. {ask}"), U("The confirmation code is Z K three F F W.")]
    events += [A(f"Please wait a moment. {ask}"), U("Alright, I'll leave it there. Goodbye.")]
    res = user_behavioral_fidelity_offline(_ctx(events))
    assert res.score == 1.0, res.details
    # asked twice only, it is still a request in progress
    short = [*events[:4], A(f"Please wait a moment. {ask}"), U("Alright, I'll leave it there. Goodbye.")]
    assert user_behavioral_fidelity_offline(_ctx(short)).score == 0.0


def test_leaving_an_agent_that_asks_again_for_what_the_caller_lacks_is_not_premature() -> None:
    """Live make run, bb.1: asked for the flight date, the caller said it did not have it; the
    agent asked for the date again and the caller left. The agent was stuck, not progressing."""
    ask = "Could you please provide the date of the flight you want to add a bag to?"
    events = [
        A("Hello! How can I help you today?"),
        U("Hi, I'd like to cancel my flight."),
        A(f"Okay. {ask}"),
        U("I don't have that, sorry."),
        A("Could you please try again?"),
        U("Is there any other option?"),
        A(f"Yes, there are other options. {ask}"),
        U("Alright, I'll leave it there. Goodbye."),
    ]
    assert user_behavioral_fidelity_offline(_ctx(events)).score == 1.0
    events[3] = U("It's on June the fifth.")  # it gave the value: one re-ask is a fair retry
    assert user_behavioral_fidelity_offline(_ctx(events)).details["detected"] == ["premature_ending"]


def test_a_database_as_expected_without_any_write_does_not_resolve_the_task() -> None:
    """The expected outcome is reached by reads alone (an authentication record, or no change):
    the caller leaving mid-question is still premature."""
    events = [*lookup(), U("Yes, but first tell me the refund timeline."),
              A("Sure. Which card should the refund go back to, the Visa or the Mastercard?"),
              U("Actually, never mind. I have to go. Bye.")]  # fmt: skip
    db = {"reservations": {"ZK3FFW": {"status": "confirmed"}}}
    ctx = context(events, user_goal=GOAL, conversation_ended_reason="end_call", simulator_ended_call=True,
                  expected_db=db, initial_db=db, final_db=db)  # fmt: skip
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["premature_ending"]
