"""What kind of fault an attempt met, named for a person: a table from the record's error
source, plus the agent's own errors read from a completed record's events.

Four classes, each with its consequence in the attempt loop:

* ``infrastructure``: the harness could not run the call (a crash, a hang, a dropped socket,
  a failed caller voice, a full disk, an unreadable record): retried, never scored;
* ``agent_error``: the agent under test misbehaved (a malformed or failing tool call, a tool
  call it never answered): the call is scored as it went, never redone;
* ``validation``: the simulated caller did not give the agent a fair call: regenerated;
* ``scenario_error``: the scenario itself is bad (caught before any call, naming the file,
  record and field).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

FaultClass = Literal["infrastructure", "agent_error", "validation", "scenario_error"]

#: error_source -> (class, what it means). A source not listed is still infrastructure,
#: named by the source itself (never "unknown").
SOURCES: dict[str, tuple[FaultClass, str]] = {
    "crash": ("infrastructure", "the call's process died"),
    "timeout": ("infrastructure", "hang: no result by the deadline"),
    "transport": ("infrastructure", "socket dropped"),
    "agent_transport": ("infrastructure", "socket dropped (caller's side closed)"),
    "simulator_transport": ("infrastructure", "socket dropped (agent's side closed)"),
    "simulator": ("infrastructure", "the simulated caller's pipeline failed"),
    "worker": ("infrastructure", "the call's process wrote no readable record"),
    "ray": ("infrastructure", "the Ray task died"),
    "disk_full": ("infrastructure", "disk full while writing the record"),
    "resume": ("infrastructure", "record found damaged at resume"),
    "agent": ("agent_error", "the agent's pipeline failed"),
    "simulation": ("validation", "the simulation marked itself invalid"),
    "validation": ("validation", "the validation gate rejected the simulation"),
    "scenario": ("scenario_error", "the scenario is invalid"),
}

#: A line of a dead worker's log that says why, before the generic "the process died".
LOG_SOURCES = (("[Errno 28]", "disk_full"), ("No space left on device", "disk_full"))


def fault_class(source: str | None) -> tuple[FaultClass, str]:
    """(class, meaning) of an error source."""
    if source is None:
        return "infrastructure", "no error source recorded"
    return SOURCES.get(source, ("infrastructure", f"{source} failed"))


def source_from_log(tail: str, default: str) -> str:
    """A dead worker's error source, refined by what its log's tail says (a full disk)."""
    return next((src for text, src in LOG_SOURCES if text in tail), default)


def agent_errors(record_dir: Path) -> list[str]:
    """The agent's own errors in a completed call: errors its pipeline noted and went on
    from, tool calls answered with an error, or never answered. Empty when it made none."""
    path = record_dir / "events.jsonl"
    if not path.is_file():
        return []
    calls: dict[str, str] = {}
    found: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            e: dict[str, Any] = json.loads(line)
        except ValueError:
            continue  # a torn last line is the reader's business, not an agent error
        if e.get("type") == "tool_call":
            calls[str(e.get("call_id"))] = str(e.get("name"))
        elif e.get("type") == "error" and e.get("side") == "agent" and not e.get("fatal"):
            found.append(f"agent error: {e.get('message')}"[:200])
        elif e.get("type") == "tool_result":
            calls.pop(str(e.get("call_id")), None)
            if e.get("status") != "success":
                res = e.get("result") or {}
                kind = res.get("error_type") or res.get("status") or e.get("status")
                msg = res.get("message") or res.get("error") or res.get("value") or ""
                found.append(f"tool {e.get('name')} answered {kind}: {msg}"[:200])
    found += [f"tool {name} never answered (call {cid})" for cid, name in calls.items()]
    return found


def attempt_fault(
    status: str, cause: str | None, source: str | None, record_dir: Path
) -> dict[str, Any] | None:
    """The fault an attempt met, for its attempt.json: class, meaning, the cause in its own
    words and the error source; None for a clean completed call."""
    if status == "completed":
        errors = agent_errors(record_dir)
        if not errors:
            return None
        return {
            "class": "agent_error",
            "meaning": "the agent's tool calls failed",
            "cause": "; ".join(errors),
            "source": "agent",
        }
    src = source or ("validation" if status == "invalid" else None)
    cls, meaning = fault_class(src)
    return {"class": cls, "meaning": meaning, "cause": cause, "source": src}
