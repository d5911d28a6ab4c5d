"""A voxbench run as τ-voice tick trajectories, so τ-voice's own tools score voxbench's calls.

One experiment folder per domain (`<out>/<domain>/results.json` + `simulations/<id>.json`),
which together are a τ-voice trajectories folder. Each call is its timeline
(`records.native_timeline`) on 200 ms ticks (`grid.tick_dicts`); `reward_info.reward` is the
call's `task_completion` score when the run has been scored.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from voxbench.eval.from_record import load_context
from voxbench.eval.tau_voice.grid import tick_dicts
from voxbench.eval.tau_voice.records import native_timeline
from voxbench.records import atomic_write_json

TICK_S = 0.2
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _reward(record_dir: Path) -> float | None:
    p = record_dir / "metrics.json"
    if not p.is_file():
        return None
    try:
        score = json.loads(p.read_text(encoding="utf-8"))["metrics"]["task_completion"]["score"]
    except (KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{p}: field metrics.task_completion.score unreadable ({exc})") from exc
    return float(score) if isinstance(score, int | float) else None


def simulation_of(record_dir: Path, tick_s: float = TICK_S) -> tuple[str, dict[str, Any]]:
    """(domain, τ-voice simulation) of one voxbench record directory."""
    ctx = load_context(record_dir)
    sim: dict[str, Any] = {
        "id": ctx.record_id,
        "task_id": ctx.scenario_id,
        "trial": ctx.trial,
        "mode": "full_duplex",
        "termination_reason": ctx.conversation_ended_reason,
        "ticks": tick_dicts(native_timeline(ctx), tick_s),
    }
    reward = _reward(record_dir)
    if reward is not None:
        sim["reward_info"] = {"reward": reward}
    return ctx.domain or "unknown", sim


def export_run(record_dirs: list[Path], out: Path, tick_s: float = TICK_S) -> dict[str, int]:
    """Write the trajectories folder; returns the number of simulations per domain."""
    by_domain: dict[str, list[dict[str, Any]]] = {}
    for d in record_dirs:
        dom, sim = simulation_of(d, tick_s)
        by_domain.setdefault(dom, []).append(sim)
    for dom, sims in by_domain.items():
        root = out / _SAFE.sub("_", dom)
        info = {
            "environment_info": {"domain_name": dom},
            "audio_native_config": {"tick_duration_seconds": tick_s},
            "exported_by": "voxbench",
        }
        for sim in sims:
            atomic_write_json(root / "simulations" / f"{_SAFE.sub('_', sim['id'])}.json", sim)
        atomic_write_json(root / "results.json", {"info": info, "tasks": []})
    return {dom: len(s) for dom, s in by_domain.items()}
