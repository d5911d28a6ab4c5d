"""What a re-enacted reference conversation must show, read from its record alone (no pipecat).

Each check that fails adds a one-line *miss* naming what went wrong; `voxbench selftest`
exits non-zero on any. The reference agent says the trace's lines and makes its tool
calls whatever it hears, so task completion alone would pass a call whose turn-taking
went wrong: the checks also compare what was said and done, and when.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from voxbench.records import BargeIn, LLMText, PacingEvent, Speech, ToolCall, Utterance, Yield, read_record
from voxbench.records.events import Event
from voxbench.scenarios.reference_script import ReferenceScript
from voxbench.scenarios.task_completion import check_task_completion

GOOD_ENDS = ("trace_finished", "transfer")


class Bounds(BaseModel):
    """Where the reference agent's answers should land, and what pacing is healthy."""

    min_latency_s: float = Field(0.1, description="earlier than VAD can end a turn: a premature answer")
    max_latency_s: float = Field(2.5, description="caller's speech end -> agent's speech onset")
    max_late_fraction: float = Field(0.01, description="late chunks + underruns per chunk sent, per side")
    chunk_s: float = 0.04  # the wire's default chunk_ms


class CallCheck(BaseModel):
    domain: str
    scenario_id: str
    status: str = "missing"
    end_reason: str | None = None
    task_completed: bool = False
    caller_lines: int = 0
    expected_caller_lines: int = 0
    tool_calls: int = 0
    barge_ins: int = 0
    yields: int = 0
    latencies_s: list[float] = Field(default_factory=list)
    late_chunks: int = 0
    underruns: int = 0
    max_lateness_ms: float = 0.0
    duration_s: float = 0.0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    voices: dict[str, str] = Field(default_factory=dict)
    misses: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.misses


def answer_latencies(events: list[Event]) -> list[float]:
    """Caller's speech offset -> the agent's next onset, at every switch from caller to agent."""
    marks = sorted((e for e in events if isinstance(e, Speech)), key=lambda e: e.t)
    out: list[float] = []
    last: Speech | None = None
    for e in marks:
        if (
            e.channel == "agent"
            and e.state == "onset"
            and last is not None
            and last.channel == "user"
            and last.state == "offset"
        ):
            out.append(round(e.t - last.t, 3))
        last = e
    return out


def agent_responses(events: list[Event]) -> list[LLMText]:
    """The agent's responses; one said again (interrupted before a word played) counts once, the last."""
    out: list[LLMText] = []
    for e in events:
        if isinstance(e, LLMText) and e.side == "agent":
            if out and out[-1].text == e.text:
                out[-1] = e
            else:
                out.append(e)
    return out


def heard_between(speech: list[Speech], start: float, end: float, min_s: float = 0.3) -> bool:
    """The agent's speech is heard in [start, end): it starts there, or a segment already
    under way goes on for ``min_s`` past ``start``. A response said after a tool call while
    the previous one still plays joins it in one segment (no silence between them for the
    onset detector to end it), so it has no onset of its own (medical_hr/D1.2: 7 responses)."""
    on: float | None = None
    for s in sorted((s for s in speech if s.channel == "agent"), key=lambda s: s.t):
        if s.state == "onset":
            if start <= s.t < end:
                return True
            on = s.t
        elif on is not None:
            if on < start and s.t >= start + min_s:
                return True
            on = None
    return on is not None and on < start  # still speaking at the end of the record


def timing_misses(events: list[Event], script: ReferenceScript, tol_s: float = 0.05) -> list[str]:
    """Each response answers its own caller line: said after that line's speech ended, before
    the caller's next line, and heard (the agent's speech starts before the caller's next line)."""
    said = agent_responses(events)
    lines = [e.t for e in events if isinstance(e, Utterance) and e.side == "user"]
    speech = [e for e in events if isinstance(e, Speech)]
    end_t = max((e.t for e in events), default=0.0)
    out: list[str] = []
    for n, ((block, _), e) in enumerate(zip(script.response_blocks(), said, strict=False), 1):
        nxt = lines[block + 1] if block + 1 < len(lines) else end_t + 1
        if block >= 0 and block < len(lines):
            line_end = max(
                (
                    s.t
                    for s in speech
                    if s.channel == "user" and s.state == "offset" and lines[block] <= s.t < nxt
                ),
                default=lines[block],
            )
            if e.t < line_end - tol_s:
                out.append(f"response #{n} said {line_end - e.t:.2f}s before caller line {block + 1} ended")
        if e.t > nxt:
            out.append(f"response #{n} said after the caller's next line started")
        elif not heard_between(speech, e.t, nxt):
            out.append(f"response #{n} was never heard before the caller's next line")
    return out


def check_call(
    record_dir: Path, script: ReferenceScript, bounds: Bounds, domain: str, scenario_id: str
) -> CallCheck:
    c = CallCheck(domain=domain, scenario_id=scenario_id, expected_caller_lines=len(script.user_lines))
    if not (record_dir / "record.json").is_file():
        c.misses.append("no record written")
        return c
    b = read_record(record_dir)
    rec, ev = b.record, b.events
    c.status, c.end_reason, c.duration_s = rec.status, rec.end_reason, rec.duration_s or 0.0
    c.voices = {
        "agent": rec.agent.tts.model or "" if rec.agent.tts else "",
        "caller": rec.simulator.tts.model or "" if rec.simulator.tts else "",
    }
    if rec.status != "completed":
        c.misses.append(f"status {rec.status}: {rec.error_source}: {rec.error}")
    if rec.end_reason not in GOOD_ENDS:
        c.misses.append(f"ended by {rec.end_reason}")
    expected_db = (b.scenario or {}).get("ground_truth", {}).get("expected_scenario_db")
    if b.final_db is not None and expected_db is not None:
        tc = check_task_completion(expected_db, b.final_db)
        c.task_completed = tc.success
        if not tc.success:
            c.misses.append("task not completed (final database differs from the expected one)")
    else:
        c.misses.append("task not scorable (no final or expected database)")
    lines = [e.text for e in ev if isinstance(e, Utterance) and e.side == "user"]
    c.caller_lines = len(lines)
    if lines != list(script.user_lines):
        c.misses.append(f"caller spoke {len(lines)}/{len(script.user_lines)} reference lines")
    said = [e.text for e in agent_responses(ev)]
    want = script.responses
    if said != want:
        n = next(
            (i for i, (a, w) in enumerate(zip(said, want, strict=False)) if a != w), min(len(said), len(want))
        )
        c.misses.append(
            f"agent responses differ from the trace at #{n + 1} ({len(said)} said, {len(want)} expected)"
        )
    c.misses += timing_misses(ev, script)
    calls = [e.name for e in ev if isinstance(e, ToolCall)]
    c.tool_calls = len(calls)
    if calls != script.tool_calls:
        c.misses.append(f"tool calls {calls} != trace {script.tool_calls}")
    c.barge_ins = sum(isinstance(e, BargeIn) for e in ev)
    c.yields = sum(isinstance(e, Yield) for e in ev)
    if c.barge_ins or c.yields:
        c.misses.append(f"{c.barge_ins} barge-ins, {c.yields} yields (expected none)")
    c.latencies_s = answer_latencies(ev)
    off = [x for x in c.latencies_s if not bounds.min_latency_s <= x <= bounds.max_latency_s]
    if off:
        c.misses.append(
            f"{len(off)} agent answers outside {bounds.min_latency_s}-{bounds.max_latency_s}s: {off[:3]}"
        )
    _pacing(c, [e for e in ev if isinstance(e, PacingEvent)], bounds)
    return c


def _pacing(c: CallCheck, pacing: list[PacingEvent], bounds: Bounds) -> None:
    chunks = max(1.0, c.duration_s / bounds.chunk_s)
    for p in pacing:
        c.late_chunks += p.late_chunks
        c.underruns += p.underruns
        c.max_lateness_ms = max(c.max_lateness_ms, p.max_lateness_ms)
        if (p.late_chunks + p.underruns) / chunks > bounds.max_late_fraction:
            c.misses.append(
                f"{p.side} pacing: {p.late_chunks} late chunks, {p.underruns} underruns in {chunks:.0f} chunks"
            )
    if not pacing:
        c.misses.append("no pacing health in the record")
