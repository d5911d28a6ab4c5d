"""Recognise and read τ-voice runs: an experiment folder (`results.json` + `simulations/`,
or a `results.json` holding its simulations), or a trajectories folder of several; score
them per domain into τ-voice's panel."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from pydantic import ValidationError

from voxbench.eval.tau_voice.panel import VERSION, overall, panel_of
from voxbench.eval.tau_voice.ticks import Simulation, timeline_from_ticks
from voxbench.eval.tau_voice.timeline import Event, Windows, detect


class TauVoiceError(ValueError):
    """A τ-voice folder that cannot be scored (names the file and field)."""


@dataclass
class Experiment:
    path: Path
    domain: str
    tick_duration_sec: float
    simulations: list[Simulation]


def _read_json(p: Path) -> Any:
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise TauVoiceError(f"{p}: not readable JSON ({exc})") from exc


def experiment_files(root: Path) -> list[Path]:
    """The results files of every experiment under root (itself, or its children / files)."""
    if (root / "results.json").is_file():
        return [root / "results.json"]
    out: list[Path] = []
    for child in sorted(root.iterdir()):
        if child.is_dir() and (child / "results.json").is_file():
            out.append(child / "results.json")
        elif child.is_file() and child.suffix == ".json" and _has_info(child):
            out.append(child)
    return out


def _has_info(p: Path) -> bool:
    data = _read_json(p)
    return isinstance(data, dict) and isinstance(data.get("info"), dict) and "tasks" in data


def is_tau_voice_run(root: Path) -> bool:
    """`voxbench eval` recognises a τ-voice folder by its results files (voxbench's and EVA's
    layouts have none)."""
    try:
        return root.is_dir() and bool(experiment_files(root))
    except TauVoiceError:
        return False


def _simulation(raw: Any, where: str) -> Simulation:
    try:
        return Simulation.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise TauVoiceError(f"{where}: field {loc}: {err['msg']}") from exc


def read_experiment(results: Path) -> Experiment:
    data = _read_json(results)
    if not isinstance(data, dict) or not isinstance(data.get("info"), dict):
        raise TauVoiceError(f"{results}: no `info` object")
    info = data["info"]
    domain = (info.get("environment_info") or {}).get("domain_name")
    if not isinstance(domain, str) or not domain:
        raise TauVoiceError(f"{results}: field info.environment_info.domain_name missing")
    tick = (info.get("audio_native_config") or {}).get("tick_duration_seconds")
    tick_s = float(tick) if isinstance(tick, int | float) else Windows().tick_duration_sec
    assert tick_s is not None
    sims = [
        _simulation(s, f"{results}: simulations[{i}]") for i, s in enumerate(data.get("simulations") or [])
    ]
    sim_dir = results.parent / "simulations"
    if results.name == "results.json" and sim_dir.is_dir():
        for p in sorted(sim_dir.glob("*.json")):
            sims.append(_simulation(_read_json(p), str(p)))
    return Experiment(results.parent if results.name == "results.json" else results, domain, tick_s, sims)


def simulation_events(sim: Simulation, windows: Windows) -> list[Event]:
    assert windows.tick_duration_sec is not None and sim.ticks
    return detect(timeline_from_ticks(sim.ticks, windows.tick_duration_sec), windows)


def score_tau_voice(root: Path) -> dict[str, Any]:
    """The panel per domain over all simulations, with counts, windows, and task reward."""
    exps = [read_experiment(p) for p in experiment_files(root)]
    by_domain: dict[str, list[Experiment]] = {}
    for e in exps:
        by_domain.setdefault(e.domain, []).append(e)
    domains: dict[str, dict[str, Any]] = {}
    configs: dict[str, dict[str, Any]] = {}
    for dom, group in sorted(by_domain.items()):
        events: list[Event] = []
        rewards: list[float] = []
        n_sims = 0
        ticks_used: set[float] = set()
        for e in group:
            w = Windows(tick_duration_sec=e.tick_duration_sec)
            for s in e.simulations:
                if not s.ticks:
                    continue
                n_sims += 1
                ticks_used.add(e.tick_duration_sec)
                events += simulation_events(s, w)
                if s.reward is not None:
                    rewards.append(s.reward)
        if not n_sims:
            continue
        p = panel_of(events)
        p["num_simulations"] = n_sims
        p["task_reward_mean"] = fmean(rewards) if rewards else None
        p["task_reward_count"] = len(rewards)
        domains[dom] = p
        cfg = Windows().model_dump()
        cfg["tick_duration_sec"] = ticks_used.pop() if len(ticks_used) == 1 else sorted(ticks_used)
        configs[dom] = cfg
    if not domains:
        raise TauVoiceError(f"{root}: no tick-bearing (full-duplex) simulations; the panel needs voice runs")
    return {
        "interaction_metrics": {
            "version": VERSION,
            "config": _one_config(configs),
            "domains": domains,
            "overall": overall(domains),
        },
        "experiments": [str(e.path) for e in exps],
    }


def _one_config(configs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One config block when every domain used the same windows, else one per domain."""
    vals = list(configs.values())
    return vals[0] if all(v == vals[0] for v in vals) else {"per_domain": configs}
