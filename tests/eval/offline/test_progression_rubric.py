"""The rubric floor of conversation_progression (`_progression_rubric`): classes EVA's rubric
defines by what the record shows, rated by its own severity wording."""

from __future__ import annotations

from typing import Any

from tests.eval.test_offline_judges import ctx_of
from voxbench.eval.offline import _progression_rubric as rubric
from voxbench.eval.offline import progression

CALL = ("get_reservation", {"confirmation_number": "QX7K2M", "last_name": "Lee"})
STATUS = ("get_flight_status", {"flight_number": "SK2", "date": "2026-03-19"})
REBOOK = ("rebook_flight", {"confirmation_number": "QX7K2M", "journey_id": "J2"})
TOOLS = [{"name": n, "tool_type": k} for n, k in
         (("get_reservation", "auth"), ("get_flight_status", "read"), ("rebook_flight", "write"))]  # fmt: skip
LINES = [("assistant", "Hi, how can I help you today?"),
         ("user", "I need to move my flight to tomorrow morning."),
         ("assistant", "Sure. May I have your confirmation number and last name?"),
         ("user", "QX7K2M, last name Lee."),
         ("assistant", "Thanks. I found your booking and checked your flight."),
         ("user", "Great, please go ahead."),
         ("assistant", "Done, you're on the nine AM flight tomorrow."),
         ("user", "Thanks, bye.")]  # fmt: skip


def _ctx(lines: list[tuple[str, str]], calls: tuple[Any, ...]) -> Any:
    ctx = ctx_of(lines, calls)
    ctx.agent_tools = TOOLS
    return ctx


def _floor(ctx: Any) -> tuple[int, dict[str, int]]:
    found = progression.rubric_findings(ctx)
    return rubric.rubric_rating(found, set())


def test_a_clean_call_has_no_floor() -> None:
    ctx = _ctx(LINES, ((2, *CALL), (2, *STATUS), (3, *REBOOK)))
    assert _floor(ctx) == (3, {})
    assert progression.progression_offline(ctx).score == 3


def test_one_identical_call_is_minor_two_are_multiple() -> None:
    once = _ctx(LINES, ((2, *CALL), (2, *STATUS), (2, *STATUS), (3, *REBOOK)))
    assert _floor(once) == (2, {"unnecessary_tool_calls": 2})
    twice = _ctx(LINES, ((2, *CALL), (2, *CALL), (2, *STATUS), (2, *STATUS), (3, *REBOOK)))
    assert _floor(twice)[0] == 1
    assert progression.progression_offline(twice).score == 1


def test_a_write_between_makes_the_same_lookup_new() -> None:
    ctx = _ctx(LINES, ((2, *CALL), (3, *REBOOK), (3, *CALL)))
    assert _floor(ctx) == (3, {})


def test_an_identical_retry_of_a_failed_call_is_no_repeat_of_a_success() -> None:
    ctx = _ctx(LINES, ((2, *CALL), (2, *CALL)))
    first = next(e for e in ctx.conversation_trace if e.get("type") == "tool_response")
    first["tool_response"] = {"status": "error", "error_type": "not_found"}
    assert not [x for x in progression.rubric_findings(ctx) if "identical" in x["rule"]]


def test_asking_again_for_a_fact_a_successful_call_used() -> None:
    again = [*LINES[:5], ("assistant", "Sorry, could you give me your last name again?"), *LINES[5:]]
    assert _floor(_ctx(again, ((2, *CALL),))) == (2, {"information_loss": 2})
    before = [*LINES[:2], ("assistant", "Could you give me your last name?"), *LINES[2:]]
    assert _floor(_ctx(before, ((2, *CALL),))) == (3, {})
    other = [*LINES[:5], ("assistant", "What is the other passenger's last name?"), *LINES[5:]]
    assert _floor(_ctx(other, ((2, *CALL),))) == (3, {})


def test_an_open_question_once_the_goal_is_stated_is_severe() -> None:
    vague = [*LINES[:5], ("assistant", "So, what would you like to do today?"), *LINES[5:]]
    assert _floor(_ctx(vague, ((2, *CALL), (3, *REBOOK)))) == (1, {"question_quality": 1})
    announced = [LINES[0], ("user", "Hi, I have a couple of travel things I need help with."),
                 ("assistant", "Sure, what would you like to do first?"), *LINES[1:]]  # fmt: skip
    assert _floor(_ctx(announced, ((3, *CALL), (4, *REBOOK)))) == (3, {})
    closing = [*LINES[:7], ("assistant", "Is there anything else I can help you with?"), LINES[7]]
    assert _floor(_ctx(closing, ((2, *CALL), (3, *REBOOK)))) == (3, {})


def test_three_flagged_dimensions_are_a_one() -> None:
    found = [{"feature": "needless_calls"}, {"feature": "reasked_facts"}]
    assert rubric.rubric_rating(found, set())[0] == 2
    assert rubric.rubric_rating(found, {"redundant_statements"})[0] == 1


def test_a_template_read_with_new_values_is_no_repeated_statement() -> None:
    lines = [("assistant", "Hi, how can I help?"), ("user", "Two requests please."),
             ("assistant", "Your request number is R E Q, zero four eight two seven one."),
             ("user", "And the second?"),
             ("assistant", "Your request number is R E Q, zero four eight two seven three."),
             ("user", "Say it again?"),
             ("assistant", "Your request number is R E Q, zero four eight two seven three.")]  # fmt: skip
    found = [x for x in progression.findings(ctx_of(lines)) if x["feature"] == "repeated_statements"]
    assert [x["turn"] for x in found] == [3]
