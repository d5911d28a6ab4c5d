"""The caller rules added for the validation gate (issue 36): a fact withheld when asked, a
request outside the goal, one line in another language; and what does not count (sympathy is
not a stall, a date said in parts is not invented)."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, context, lookup

GOAL: dict[str, Any] = {
    "high_level_user_goal": "Cancel your flight ZK3FFW and get a refund.",
    "decision_tree": {"escalation_behavior": "Do not ask to speak to a supervisor or live agent."},
    "information_required": {"Booking confirmation number": "ZK3FFW", "Passenger last name": "Rodriguez",
                             "Travel date": "2026-04-22"},
}  # fmt: skip


def _rate(events: list[dict[str, Any]]) -> list[str]:
    ctx = context(events, user_goal=GOAL, conversation_ended_reason="end_call", simulator_ended_call=True)
    return list(user_behavioral_fidelity_offline(ctx).details["detected"])


def test_withheld_fact() -> None:
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("Sure. What is your confirmation number?"), U("Sorry, I don't know it."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == ["missing_information"]
    events[3] = U("It's Z K three F F W.")
    assert _rate(events) == []


def test_request_outside_the_goal() -> None:
    events = [*lookup(), U("Yes. While I have you, I'd also like to update the mailing address on my account."),
              A("That is done. Anything else?"), U("No, bye.")]  # fmt: skip
    assert _rate(events) == ["extra_modifications"]
    events[5] = U("Yes. Can you also confirm the refund goes to my card?")
    assert _rate(events) == []


def test_one_line_in_another_language() -> None:
    events = [*lookup(), U("Sí, claro. ¿Puede ayudarme con eso, por favor? Lo necesito para hoy."),
              A("That is done. Anything else?"), U("No, bye.")]  # fmt: skip
    assert _rate(events) == ["wrong_language"]


def test_sympathy_is_not_a_stall_and_a_date_said_in_parts_is_not_invented() -> None:
    events = [A("Hi, how can I help?"),
              U("My flight on twenty twenty-six dash zero four dash two two, code Z K three F F W."),
              A("Sorry to hear about the trouble. What is the passenger's last name?"), U("Never mind, bye.")]  # fmt: skip
    assert _rate(events) == ["premature_ending"]
