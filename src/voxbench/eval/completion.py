"""Time and turns to completion: when did a completed task become complete?

A task is complete when the database reaches its expected state (EVA's task
completion: session gate, then hash). The moment that happened is the tool call after
which the database first matched the expected one and kept matching to the end of the
call. We find it by replaying the conversation's own tool calls, in order, through the
deterministic ToolExecutor from the recorded starting database; the replay must end on
the recorded final database, or we say so instead of guessing.

Seconds run from the start of the call (the record clock's zero; for EVA logs, the
first timestamp of the conversation) to that tool call; turns are the conversation turn
it happened in (turn 1 is the caller's first turn). Aggregation: median and p90 per
system and domain, next to task completion.
"""

from __future__ import annotations

from statistics import median
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError

from voxbench.eval.context import ConversationContext
from voxbench.scenarios import AgentSpec, ToolExecutor, db_hash, session_auth_mismatches


class Completion(BaseModel):
    """When one conversation's task became complete (or why that is unknown)."""

    completed: bool
    seconds: float | None = None
    turns: int | None = None
    tool_call_index: int | None = None
    tool: str | None = None
    call_start: float | None = None
    note: str | None = None


def call_start(ctx: ConversationContext) -> float:
    """The call's zero on the context clock."""
    if ctx.source == "voxbench":
        return 0.0
    times = [s for segs in ctx.audio_timestamps_user_turns.values() for s, _ in segs]
    times += [s for segs in ctx.audio_timestamps_assistant_turns.values() for s, _ in segs]
    times += [c.t for c in ctx.tool_calls if c.t]
    return min(times) if times else 0.0


def _agent_spec(ctx: ConversationContext) -> AgentSpec | None:
    try:
        return AgentSpec.model_validate(
            {"id": f"agent_{ctx.domain}", "name": ctx.domain, "tools": ctx.agent_tools}
        )
    except ValidationError:
        return None


def completion_of(ctx: ConversationContext) -> Completion:
    """The completing tool call of a conversation whose final database is the expected one."""
    if ctx.expected_db is None or ctx.final_db is None or ctx.initial_db is None:
        return Completion(completed=False, note="record lacks a starting, final or expected database")
    expected = ctx.expected_db
    want = db_hash(expected)

    def matches(db: dict[str, Any]) -> bool:  # task completion's rule, without building a diff
        return not session_auth_mismatches(expected, db) and db_hash(db) == want

    if not matches(ctx.final_db):
        return Completion(completed=False)
    spec = _agent_spec(ctx)
    if spec is None or not ctx.domain:
        return Completion(completed=True, note="no tool spec or domain in the record: cannot replay")
    ex = ToolExecutor(
        ctx.domain,
        ctx.initial_db,
        ctx.current_date_time or str(ctx.initial_db.get("_current_date")),
        spec,
        audit=False,  # only the database is read
    )
    ok = matches(ex.db)
    done_at: int | None = -1 if ok else None
    for i, call in enumerate(ctx.tool_calls):
        ex.execute(call.name, call.params)
        ok = matches(ex.db)
        if ok and done_at is None:
            done_at = i
        elif not ok:
            done_at = None
    # `want` is also the final database's hash (it matched above); a replay whose last
    # state matched has that hash already
    if not ok and db_hash(ex.db) != want:
        return Completion(
            completed=True, note="replaying the recorded tool calls does not reach the final database"
        )
    if done_at is None:  # cannot happen when the replay reached the final db, which passes
        return Completion(completed=True, note="no tool call reached the expected state")
    if done_at == -1:
        return Completion(completed=True, note="the expected state held before any tool call")
    call = ctx.tool_calls[done_at]
    t0 = call_start(ctx)
    return Completion(
        completed=True,
        seconds=round(max(0.0, call.t - t0), 3),
        turns=call.turn_id,
        tool_call_index=done_at,
        tool=call.name,
        call_start=t0,
    )


def _dist(vals: list[float]) -> dict[str, float | None]:
    if not vals:
        return {"median": None, "p90": None}
    return {"median": round(float(median(vals)), 3), "p90": round(float(np.percentile(vals, 90)), 3)}


def completion_stats(items: list[tuple[str, dict[str, Any] | None, float | None]]) -> dict[str, Any]:
    """Aggregate (domain, completion dict, task_completion value) per domain and overall.

    `tasks_completed` counts task_completion == 1; seconds and turns are over those whose
    completing call was found (`timed`).
    """

    def block(rows: list[tuple[str, dict[str, Any] | None, float | None]]) -> dict[str, Any]:
        scored = [tc for _, _, tc in rows if tc is not None]
        done = [c for _, c, tc in rows if tc == 1.0]
        secs = [float(c["seconds"]) for c in done if c and c.get("seconds") is not None]
        turns = [float(c["turns"]) for c in done if c and c.get("turns") is not None]
        return {
            "conversations": len(rows),
            "task_completion": round(sum(scored) / len(scored), 4) if scored else None,
            "tasks_completed": len(done),
            "timed": len(secs),
            "seconds": _dist(secs),
            "turns": _dist(turns),
        }

    domains = sorted({d for d, _, _ in items})
    return {
        "overall": block(items),
        "per_domain": {d: block([x for x in items if x[0] == d]) for d in domains},
    }
