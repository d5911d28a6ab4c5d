"""Every caller line of a live run, for reading by eye (prints; not a timed test).

Reading a live run's caller lines for character (issue 29: in role, natural, values said as a
person says them, the right facts, the right answer to what was asked, an end with a reason)
needs, per call, what the agent said, what the caller *heard* of it (its own STT: the caller
answers that, not the agent's text), the caller's act and the rule behind it, the facts it
disclosed with their values, and why it ended. The record holds all of it (``events.jsonl``:
``tts_text`` of the agent, ``transcript`` events of each side's recogniser, ``caller_act``
events, tool calls); this prints it in call order, one call after another:

    A  12.3 said   the agent's text (what its TTS was given)
            heard  what the caller's STT made of it (only when it differs)
    T  13.0 get_reservation(confirmation_number=ZK3FFW) -> success
    C  15.1 answer "My confirmation code is Z K three ..."   [rule; heard=...; facts key=value]
            agent heard  what the agent's STT made of the caller (only when it differs)

and per call a header (scenario, status, end reason, duration, task_completion and EVA-A_pass
when scored) and the caller's ending act with its ``end:<reason>``.

    .venv/bin/python benchmarks/live_caller_lines.py RUN_DIR [--call SUBSTRING] [--no-heard]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.records import read_record
from voxbench.records.events import CallerAct, ToolCall, ToolResult, Transcript, TTSText, Utterance


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def fact_values(scenario: dict[str, Any]) -> dict[str, str]:
    """Fact key -> value, as the goal caller names its facts (so an act's ``facts`` can be checked)."""
    goal = scenario.get("user_goal") or {}
    book = goal_facts(goal.get("information_required") or {}, scenario.get("seed_data") or None)
    return {f.key: str(f.value) for f in book.facts}


def _args(arguments: Any) -> str:
    if isinstance(arguments, dict):
        return ", ".join(f"{k}={v}" for k, v in arguments.items())
    return str(arguments)


def _scores(conv_dir: Path) -> str:
    path = conv_dir / "metrics.json"
    if not path.is_file():
        return "not scored"
    m = json.loads(path.read_text())
    task = (m.get("metrics", {}).get("task_completion") or {}).get("score")
    agg = m.get("aggregate_metrics") or {}
    valid = (m.get("validation") or {}).get("status")
    return f"task_completion={task} EVA-A_pass={agg.get('EVA-A_pass')} validation={valid}"


def _merge_heard(lines: list[tuple[float, str, str]]) -> list[tuple[float, str, str]]:
    """Consecutive pieces of one side as one line: the agent's text comes a sentence at a time."""
    out: list[tuple[float, str, str]] = []
    for t, kind, text in lines:
        if out and out[-1][1] == kind and kind in ("said", "heard", "agent_heard"):
            out[-1] = (out[-1][0], kind, f"{out[-1][2]} {text}".strip())
        else:
            out.append((t, kind, text))
    return out


def call_lines(conv_dir: Path, show_heard: bool = True) -> list[str]:
    """The printed lines of one call."""
    bundle = read_record(conv_dir)
    rec = bundle.record
    facts = fact_values(bundle.scenario)
    out = [
        f"=== {rec.conversation_id} ({rec.domain}/{rec.scenario_id}) status={rec.status} "
        f"end={rec.end_reason} {rec.duration_s or 0:.0f}s caller={rec.simulator.kind} {_scores(conv_dir)}",
    ]
    if rec.error:
        out.append(f"    error ({rec.error_source}): {rec.error}")
    goal = (bundle.scenario.get("user_goal") or {}).get("high_level_user_goal", "")
    out.append(f"    goal: {goal}")
    rows: list[tuple[float, str, str]] = []
    has_acts = any(isinstance(e, CallerAct) and e.rule for e in bundle.events)
    for e in bundle.events:
        if isinstance(e, TTSText) and e.channel == "agent":
            rows.append((e.t, "said", e.text.strip()))
        elif isinstance(e, Transcript) and e.final and e.source == "live":
            if e.side == "user" and e.channel == "agent":
                rows.append((e.t, "heard", e.text.strip()))
            elif e.side == "agent" and e.channel == "user":
                rows.append((e.t, "agent_heard", e.text.strip()))
        elif isinstance(e, ToolCall):
            rows.append((e.t, "tool", f"{e.name}({_args(e.arguments)})"))
        elif isinstance(e, ToolResult):
            rows.append((e.t, "result", f"{e.name} -> {e.status}"))
        elif isinstance(e, CallerAct) and e.rule:
            rows.append((e.t, "act", _act(e, facts)))
        elif isinstance(e, Utterance) and e.channel == "user" and not has_acts:  # a caller without acts
            rows.append((e.t, "act", f'{"line":<15} "{e.text}"'))
    said_block: list[str] = []
    caller_said = ""
    for t, kind, text in _merge_heard(sorted(rows, key=lambda r: r[0])):
        if kind == "said":
            said_block.append(text)
            out.append(f"A {t:6.1f} said   {text}")
        elif kind == "heard":
            if show_heard and _norm(text) != _norm(" ".join(said_block)):
                out.append(f"         heard  {text}")
            said_block = []
        elif kind == "agent_heard":
            if show_heard and _norm(text) != _norm(caller_said):
                out.append(f"         agent heard  {text}")
        elif kind == "tool":
            out.append(f"T {t:6.1f} {text}")
        elif kind == "result":
            out[-1] += f" -> {text.split(' -> ')[-1]}"
        else:
            said_block = []
            caller_said = text.split('"')[1] if text.count('"') >= 2 else ""
            out.append(f"C {t:6.1f} {text}")
    return out


def _act(e: CallerAct, facts: dict[str, str]) -> str:
    end = [r for r in e.rules if r.startswith("end:")]
    parts = [f"rule={e.rule}"]
    if e.heard:
        parts.append("heard=" + ",".join(e.heard))
    if e.facts:
        parts.append("facts=" + "; ".join(f"{k}={facts.get(k, '?')}" for k in e.facts))
    if e.choice:
        parts.append(f"choice={e.choice}")
    if e.ends_call:
        parts.append("ENDS " + (",".join(end) or "end:?"))
    text = f'"{e.text}"' if e.text else "(silent)"
    return f"{e.kind:<15} {text}   [{'; '.join(parts)}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--call", default="", help="only conversations whose id contains this")
    ap.add_argument("--no-heard", action="store_true", help="leave out what each side's STT heard")
    args = ap.parse_args(argv)
    records = args.run_dir / "records"
    if not records.is_dir():
        print(f"{args.run_dir}: no records/ folder (not a voxbench run folder)", file=sys.stderr)
        return 2
    dirs = sorted(d for d in records.iterdir() if (d / "record.json").is_file() and args.call in d.name)
    for d in dirs:
        print("\n".join(call_lines(d, show_heard=not args.no_heard)))
        print()
    print(f"{len(dirs)} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
