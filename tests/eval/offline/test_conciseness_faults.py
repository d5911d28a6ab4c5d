"""A tool response read out (`conciseness_faults.py`): the values of one response said in a
turn are counted, the caller's own and the fields the caller named are not, and more than
`READ_OUT_MAX` rate the turn 1 whatever its counts."""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.metrics.judged import conciseness
from voxbench.eval.offline.conciseness import agent_turns
from voxbench.eval.offline.conciseness_faults import READ_OUT_MAX, read_out, turn_views
from voxbench.eval.types import EvalConfig

OFF = EvalConfig(judge_mode="offline")
RECORD = {
    "status": "success",
    "employee": {"employee_id": "EMP04396", "first_name": "Olivia", "last_name": "Tanaka",
                 "department": "Engineering", "office": "East Campus", "floor": "FL2",
                 "manager": "Priya Shah", "laptop_model": "ThinkPad X1", "remote": True},
}  # fmt: skip
TOOL = (1, "get_employee_record", RECORD)
READ = "Here is your record: Olivia Tanaka, EMP04396, Engineering, East Campus, FL2, Priya Shah, ThinkPad X1."
CLOSE = [("user", "Thanks."), ("assistant", "You're welcome. Goodbye.")]


def ctx_of(
    lines: list[tuple[str, str]], tool: tuple[int, str, dict[str, Any]] | None = None
) -> ConversationContext:
    """(role, text) lines, turn 0 the greeting, a caller line opening a turn; one tool call with
    its response in turn `tool[0]`."""
    trace: list[dict[str, Any]] = []
    turn = 0
    for role, text in lines:
        turn += role == "user"
        trace.append({"role": role, "content": text, "type": "intended", "turn_id": turn})
        if tool and role == "user" and tool[0] == turn:
            trace.append({"type": "tool_call", "tool_name": tool[1], "parameters": {}, "turn_id": turn})
            trace.append(
                {"type": "tool_response", "tool_name": tool[1], "tool_response": tool[2], "turn_id": turn}
            )
    return ConversationContext(record_id="hand", conversation_trace=trace)


def _read_out(caller: str, agent: str) -> int:
    return read_out(
        turn_views(ctx_of([("assistant", "Hi."), ("user", caller), ("assistant", agent), *CLOSE], TOOL))[1]
    )


def test_values_of_one_response_said_are_counted_the_callers_own_and_asked_not() -> None:
    assert _read_out("Check my record please.", READ) == 8 > READ_OUT_MAX
    assert (
        _read_out("I'm Olivia Tanaka, EMP04396, in Engineering.", READ) == 4
    )  # 4 of the 8 were the caller's
    assert _read_out("Who is my manager and what laptop do I have?", READ) == 6  # the fields asked about
    assert _read_out("Check my record please.", "You're in Engineering at East Campus.") == 2
    # a response given as JSON text is read as the object it is
    text = ctx_of([("assistant", "Hi."), ("user", "Check it."), ("assistant", READ)], (1, "get", {}))
    text.conversation_trace[3]["tool_response"] = '{"a": "Olivia", "b": "Tanaka", "c": "FL2"}'
    assert read_out(turn_views(text)[1]) == 3


def test_a_response_read_out_rates_the_turn_1_with_its_evidence() -> None:
    lines = [("assistant", "Hi."), ("user", "Check my record please."), ("assistant", READ), *CLOSE]
    r = conciseness(ctx_of(lines, TOOL), OFF)
    assert r.details["per_turn_rating"][1] == 1 and r.details["per_turn_rating"][2] == 3
    assert r.details["per_turn_failure_modes"][1][0] == "excess_information_density"
    ev = next(e for e in r.details["evidence"] if e["turn"] == 1)
    assert (
        "8 values of one tool response read out" in ev["claim"] and f"more than {READ_OUT_MAX}" in ev["rule"]
    )
    # the same words with no tool response behind them are rated by the counts alone
    assert (
        "read out"
        not in next(e for e in conciseness(ctx_of(lines), OFF).details["evidence"] if e["turn"] == 1)["rule"]
    )


def test_turn_views_join_a_turns_lines_and_agent_turns_keep_their_shape() -> None:
    ctx = ctx_of([("assistant", "Hi."), ("user", "Check my record."), ("assistant", "One moment."),
                  ("assistant", "Found it."), *CLOSE], TOOL)  # fmt: skip
    views = turn_views(ctx)
    assert [views[t].text for t in sorted(views)] == [
        "Hi.",
        "One moment. Found it.",
        "You're welcome. Goodbye.",
    ]
    assert views[1].caller == "Check my record." and views[1].responses == [RECORD] and not views[0].responses
    assert agent_turns(ctx) == {0: ("Hi.", ""), 1: ("One moment. Found it.", "Check my record."),
                                2: ("You're welcome. Goodbye.", "Thanks.")}  # fmt: skip


def test_a_value_inside_another_and_a_value_given_earlier_are_not_counted_again() -> None:
    """'Olivia Tanaka' said once is one value, though the record also holds her first and last
    name; values the caller gave in an earlier turn are its own, as in the same turn."""
    named = {**RECORD, "employee": {**RECORD["employee"], "name": "Olivia Tanaka"}}
    lines = [("assistant", "Hi."), ("user", "Check my record please."), ("assistant", READ), *CLOSE]
    assert read_out(turn_views(ctx_of(lines, (1, "get_employee_record", named)))[1]) == 7
    earlier = [("assistant", "Hi."), ("user", "I'm Olivia Tanaka, EMP04396, in Engineering."),
               ("assistant", "Thanks."), ("user", "Check my record please."), ("assistant", READ), *CLOSE]  # fmt: skip
    assert read_out(turn_views(ctx_of(earlier, (2, "get_employee_record", RECORD)))[2]) == 4
