"""``benchmarks/live_caller_lines.py``: a live record's turns printed with the caller's act, rule,
disclosed facts (with their values) and end reason, what the caller heard shown only where its
STT differs from what the agent said."""

from __future__ import annotations

from pathlib import Path

from voxbench.records import ConversationRecord, write_record
from voxbench.records.events import CallerAct, ToolCall, ToolResult, Transcript, TTSText

from .bench_scripts import load

SCENARIO = {
    "id": "9.9",
    "user_goal": {
        "high_level_user_goal": "Move your return flight.",
        "information_required": {"confirmation_number": "KOLTSF", "last_name": "Park"},
    },
}


def _record(tmp_path: Path) -> Path:
    events = [
        TTSText(t=1.0, side="agent", channel="agent", text="What's your confirmation number?"),
        Transcript(t=2.0, side="user", channel="agent", text="What's your confirmation number?"),
        CallerAct(
            t=2.1,
            side="user",
            kind="answer",
            text="It's K O L T S F.",
            agent_turn=1,
            rule="answer_asked_facts",
            heard=["facts"],
            facts=["confirmation_number"],
        ),
        Transcript(t=4.0, side="agent", channel="user", text="It's K O L T S F."),
        ToolCall(
            t=5.0,
            side="agent",
            call_id="c1",
            name="get_reservation",
            arguments={"confirmation_number": "KOLTSF"},
        ),
        ToolResult(t=5.2, side="agent", call_id="c1", name="get_reservation", status="success", result={}),
        TTSText(t=6.0, side="agent", channel="agent", text="Your flight is on August 17."),
        Transcript(t=7.0, side="user", channel="agent", text="Your flight is on August 70."),
        CallerAct(
            t=9.0,
            side="user",
            kind="end",
            text="Thanks. Bye.",
            agent_turn=2,
            rule="resolution_end",
            rules=["resolution_end", "end:resolved"],
            ends_call=True,
        ),
    ]
    rec = ConversationRecord(conversation_id="airline__9.9__t0__clean", domain="airline", scenario_id="9.9")
    return write_record(tmp_path / "records" / rec.conversation_id, rec, events, scenario=SCENARIO)


def test_a_call_prints_turns_acts_facts_and_end(tmp_path: Path) -> None:
    mod = load("live_caller_lines")
    lines = mod.call_lines(_record(tmp_path))
    text = "\n".join(lines)
    assert lines[0].startswith("=== airline__9.9__t0__clean (airline/9.9)")
    assert "goal: Move your return flight." in text
    assert "facts=confirmation_number=KOLTSF" in text
    assert "get_reservation(confirmation_number=KOLTSF) -> success" in text
    assert "ENDS end:resolved" in text
    # the caller's STT shown only where it differs from the agent's text; the agent's STT likewise
    assert "heard  Your flight is on August 70." in text
    assert "heard  What's your confirmation number?" not in text
    assert "agent heard" not in text


def test_main_lists_every_call_and_rejects_a_non_run(tmp_path: Path, capsys: object) -> None:
    mod = load("live_caller_lines")
    _record(tmp_path)
    assert mod.main([str(tmp_path)]) == 0
    assert mod.main([str(tmp_path / "records")]) == 2
