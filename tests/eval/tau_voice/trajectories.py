"""Small τ-voice tick trajectories drawn as strings, for rules checked by hand.

`user`/`agent`: one character per tick, `.` silent, anything else speech. `actions`: tick ->
the user's turn-taking action (default: `generate_message` on a segment's first tick,
`keep_talking` inside, `wait` in silence). `inserts`: tick -> (field, insert type)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def ticks(
    user: str,
    agent: str,
    actions: dict[int, str] | None = None,
    inserts: dict[int, tuple[str, str]] | None = None,
) -> list[dict[str, Any]]:
    assert len(user) == len(agent), "draw both sides over the same ticks"
    actions = actions or {}
    inserts = inserts or {}
    out = []
    for i, (u, a) in enumerate(zip(user, agent, strict=True)):
        speaking = u != "."
        default = (
            "wait" if not speaking else ("keep_talking" if i and user[i - 1] != "." else "generate_message")
        )
        chunk: dict[str, Any] = {
            "role": "user",
            "contains_speech": speaking,
            "turn_taking_action": {"action": actions.get(i, default)},
            "speech_effects": None,
            "source_effects": None,
        }
        if i in inserts:
            field, kind = inserts[i]
            chunk[field] = {"speech_insert": {"text": "x", "type": kind}}
        out.append(
            {
                "tick_id": i,
                "user_chunk": chunk,
                "agent_chunk": {"role": "assistant", "contains_speech": a != ".", "turn_taking_action": None},
            }
        )
    return out


def write_experiment(
    root: Path,
    domain: str,
    sims: list[list[dict[str, Any]]],
    tick: float = 0.2,
    rewards: list[float] | None = None,
) -> Path:
    """An experiment folder as τ-voice writes it: results.json + simulations/<id>.json."""
    (root / "simulations").mkdir(parents=True)
    info = {
        "environment_info": {"domain_name": domain},
        "audio_native_config": {"tick_duration_seconds": tick},
    }
    (root / "results.json").write_text(json.dumps({"info": info, "tasks": []}))
    for i, t in enumerate(sims):
        sim: dict[str, Any] = {"id": f"s{i}", "task_id": str(i), "mode": "full_duplex", "ticks": t}
        if rewards is not None:
            sim["reward_info"] = {"reward": rewards[i]}
        (root / "simulations" / f"s{i}.json").write_text(json.dumps(sim))
    return root
