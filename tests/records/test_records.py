"""Records round-trip; unknown schema versions fail loudly; writes are atomic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voxbench.records import (
    ConversationRecord,
    EventWriter,
    FallbackNudge,
    Speech,
    ToolCall,
    UnknownSchemaVersion,
    UsageEvent,
    parse_event,
    read_record,
    write_record,
)


def test_round_trip(tmp_path: Path) -> None:
    rec = ConversationRecord(
        conversation_id="c1", domain="airline", scenario_id="1.1.2", end_reason="end_call"
    )
    events = [
        ToolCall(t=2.0, side="agent", call_id="1", name="get_reservation", arguments={"x": 1}),
        Speech(t=0.5, side="harness", channel="user", state="onset"),
    ]
    write_record(
        tmp_path / "c1", rec, events, scenario={"id": "1.1.2"}, initial_db={"a": 1}, final_db={"a": 2}
    )
    b = read_record(tmp_path / "c1")
    assert b.record == rec
    assert [e.type for e in b.events] == ["speech", "tool_call"]
    assert b.final_db == {"a": 2} and b.scenario == {"id": "1.1.2"}
    assert next(iter(json.loads((tmp_path / "c1" / "record.json").read_text()))) == "schema_version"


def test_unknown_schema_version_fails_loudly(tmp_path: Path) -> None:
    d = tmp_path / "r"
    d.mkdir()
    (d / "record.json").write_text(json.dumps({"schema_version": "99.0", "conversation_id": "x"}))
    with pytest.raises(UnknownSchemaVersion, match=r"99\.0"):
        read_record(d)


def test_event_writer_keeps_lines_until_close_then_orders(tmp_path: Path) -> None:
    w = EventWriter(tmp_path / "events.jsonl")
    w.write(Speech(t=2.0, channel="agent", state="onset"))
    w.write(Speech(t=1.0, channel="user", state="onset"))
    assert len((tmp_path / "events.jsonl").read_text().splitlines()) == 2
    w.close()
    ts = [json.loads(x)["t"] for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert ts == [1.0, 2.0]
    assert not list(tmp_path.glob(".events.jsonl.*"))


def test_usage_reasoning_tokens_and_fallback_nudge_are_additive() -> None:
    old = parse_event('{"type": "usage", "t": 1.0, "side": "agent", "model": "m", "completion_tokens": 7}')
    assert isinstance(old, UsageEvent) and old.reasoning_tokens is None  # not recorded, not 0
    new = UsageEvent(t=2.0, side="agent", completion_tokens=30, reasoning_tokens=12)
    assert parse_event(new.model_dump_json()) == new
    nudge = parse_event({"type": "fallback_nudge", "t": 9.5, "silence_s": 4.0})
    assert isinstance(nudge, FallbackNudge) and nudge.side == "agent" and nudge.silence_s == 4.0


def test_caller_act_carries_goal_caller_decisions() -> None:
    """Contract: a goal caller's decision is a ``caller_act`` event with its rule and disclosed fact keys;
    perturbation acts written before the goal fields existed still parse unchanged."""
    from voxbench.records.events import CallerAct as _CallerAct

    old = parse_event(
        '{"type": "caller_act", "t": 1.0, "side": "user", "kind": "backchannel", "text": "mm-hmm"}'
    )
    assert isinstance(old, _CallerAct) and old.rule == "" and old.facts == [] and not old.ends_call
    ev = _CallerAct(
        t=3.2, side="user", kind="answer", text="Z K three F F W.", agent_turn=2, rule="answer_asked_facts",
        rules=["ask:confirmation_number:name", "answer_asked_facts"], classifier="rules",
        heard=["request"], facts=["confirmation_number"],
    )  # fmt: skip
    back = parse_event(ev.model_dump_json())
    assert back == ev
    with pytest.raises(ValueError):
        parse_event('{"type": "caller_act", "t": 1.0, "kind": "invent_a_fact"}')


def test_schema_1_0_agent_and_simulator_dicts_read_as_typed_info() -> None:
    from voxbench.records import AgentInfo, SimulatorInfo

    old = ConversationRecord.model_validate(
        {
            "schema_version": "1.0",
            "conversation_id": "c",
            "domain": "airline",
            "scenario_id": "bb.1",
            "agent": {
                "kind": "cascade",
                "config": {"greeting": "Hi"},
                "profile": "cascade-openai",
                "stt": {"kind": "openai", "model": "gpt-4o-transcribe"},
                "llm": "qwen2.5-coder-1.5b",
            },
            "simulator": {
                "kind": "llm",
                "config": {},
                "llm_reply_format": "json",
                "caller_stats": {"turns": 2},
            },
        }
    )
    assert old.agent.name == "cascade-openai" and old.agent.architecture == "cascade"
    assert old.agent.stt is not None and (old.agent.stt.vendor, old.agent.stt.model) == (
        "openai",
        "gpt-4o-transcribe",
    )
    assert old.simulator.reply_format == "json" and old.simulator.caller_stats == {"turns": 2}
    assert set(AgentInfo.model_fields) == set(old.agent.model_dump())
    assert isinstance(old.simulator, SimulatorInfo)


_JSON_TEXTS = [
    '{"a": 1, "a": 2}', "123456789012345678901234567890", "-0.0", "1e400", "NaN", "-Infinity",
    '"\\ud800"', '"\\ud83d\\ude00"', "4.9e-324", "0.1", '"a\\u0000b"', '  [1, {"b": null}]\t',
    '"a\tb"', "[1,]", "1 2", "01", "'a'", "\ufeff1", "", "nan", '{"k": 1.5e308}',
]  # fmt: skip


def _stdlib_or_error(fn: object, *args: object) -> object:
    try:
        return ("ok", repr(fn(*args)))  # type: ignore[operator]
    except ValueError as exc:
        return ("error", type(exc).__name__, str(exc))


def test_fast_json_reads_what_the_stdlib_reads(tmp_path: Path) -> None:
    """loads_json / read_json give json.loads's values, and its errors where it fails."""
    from voxbench.records.io import loads_json, read_json

    for text in _JSON_TEXTS:
        assert _stdlib_or_error(loads_json, text) == _stdlib_or_error(json.loads, text), text
        p = tmp_path / "x.json"
        p.write_bytes(text.encode("utf-8", "surrogatepass"))
        want = _stdlib_or_error(lambda q: json.loads(q.read_text(encoding="utf-8")), p)
        assert _stdlib_or_error(read_json, p) == want, text
    p.write_bytes(b'{"a": "\xff"}')  # not UTF-8: the same UnicodeDecodeError as read_text
    assert _stdlib_or_error(read_json, p) == _stdlib_or_error(lambda q: q.read_text(encoding="utf-8"), p)


def test_read_record_takes_missing_or_folder_parts_as_absent(tmp_path: Path) -> None:
    """Each part file is read without an is_file() check first: a missing file or a folder
    in its place is still "no such part", a record without record.json is still named."""
    rec = ConversationRecord(conversation_id="c1", domain="airline", scenario_id="1.1.2")
    d = write_record(tmp_path / "c1", rec, scenario={"id": "1"}, final_db={"a": 1})
    (d / "agent.json").mkdir()  # a folder where a part file would be
    b = read_record(d)
    assert b.record == rec and b.events == [] and b.torn_logs == {}
    assert b.scenario == {"id": "1"} and b.agent == {} and b.initial_db is None and b.final_db == {"a": 1}
    (d / "events.jsonl").write_bytes(
        b'{"t":0.5,"side":"harness","type":"speech","channel":"user","state":"onset"}\r\n{"t":1'
    )
    b = read_record(d)
    assert [e.type for e in b.events] == ["speech"] and b.torn_logs == {"events.jsonl": '{"t":1'}
    (d / "record.json").unlink()
    (d / "record.json").mkdir()
    with pytest.raises(FileNotFoundError, match="is not a voxbench record"):
        read_record(d)


def test_harness_pause_is_the_caller_s_and_round_trips(tmp_path: Path) -> None:
    """Contract (schema 1.2): a silence the harness put into a caller line, written and read back."""
    from voxbench.records import SCHEMA_VERSION, HarnessPause

    ev = HarnessPause(t=3.2, duration_s=4.0, sentence=1, line="Hi. My code is Q X 7.")
    assert (ev.side, ev.channel) == ("user", "user")
    assert parse_event(ev.model_dump_json()) == ev
    rec = ConversationRecord(conversation_id="c1", domain="airline", scenario_id="1", end_reason="end_call")
    write_record(tmp_path / "c1", rec, [ev, Speech(t=1.0, channel="user", state="onset")])
    b = read_record(tmp_path / "c1")
    assert b.record.schema_version == SCHEMA_VERSION == "1.2" and b.events[-1] == ev
    with pytest.raises(ValueError, match="duration_s"):
        HarnessPause(t=1.0, duration_s=-0.5)
