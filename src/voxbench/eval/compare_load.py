"""Read a scored run folder into the per-conversation values `voxbench compare` pairs.

Only files: ``records/<conversation>/record.json`` (who, which scenario, trial, condition),
``metrics.json`` (eval's scores; absent = not scored) and the scenario's own data
(``scenario.json``, ``initial_db.json``), hashed so two runs whose scenario of the same id
holds different data are not compared on it.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

FAILED_ATTEMPT_RE = re.compile(r"^.+_failed_attempt_\d+$")
DATA_FILES = ("scenario.json", "initial_db.json")


class ConvKey(NamedTuple):
    """What pairs two conversations: the same scenario, condition and trial index."""

    domain: str
    scenario_id: str
    condition: str
    trial: int

    @property
    def scenario(self) -> str:
        return f"{self.domain}/{self.scenario_id}"

    def label(self) -> str:
        return f"{self.domain}/{self.scenario_id}/{self.condition}/t{self.trial}"


@dataclass
class ConvScores:
    """One conversation's scores: metric (and composite) name -> value, None when not scored."""

    key: ConvKey
    record_id: str
    status: str  # eval's status (completed | invalid | infra_failure), or the record's if unscored
    scored: bool
    values: dict[str, float | None] = field(default_factory=dict)
    raw: set[str] = field(default_factory=set)
    """Metrics whose value is the raw score (no normalised one): their direction is the registry's."""
    data_hash: str | None = None


def read_json_object(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: unreadable JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return raw


def as_number(v: Any) -> float | None:
    """A metric value as a float (a bool as 0/1); None for anything else or NaN."""
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float) and not math.isnan(v):
        return float(v)
    return None


def _data_hash(conv_dir: Path) -> str | None:
    """SHA-256 over the scenario's data files (canonical JSON), None if the folder has none."""
    h = hashlib.sha256()
    found = False
    for name in DATA_FILES:
        p = conv_dir / name
        if p.is_file():
            found = True
            canon = json.dumps(json.loads(p.read_text(encoding="utf-8")), sort_keys=True)
            h.update(name.encode() + b"\0" + canon.encode() + b"\0")
    return h.hexdigest() if found else None


def metric_values(metrics_json: dict[str, Any]) -> tuple[dict[str, float | None], set[str]]:
    """name -> normalised score (raw score if it has none); skipped or errored -> None.

    The composites (``EVA-A_pass`` ...) come from ``aggregate_metrics`` as eval wrote them."""
    values: dict[str, float | None] = {}
    raw: set[str] = set()
    for name, m in (metrics_json.get("metrics") or {}).items():
        if not isinstance(m, dict):
            continue
        norm, score = as_number(m.get("normalized_score")), as_number(m.get("score"))
        ok = m.get("error") is None and not m.get("skipped")
        values[name] = (norm if norm is not None else score) if ok else None
        if norm is None and score is not None:
            raw.add(name)
    for name, v in (metrics_json.get("aggregate_metrics") or {}).items():
        values[name] = as_number(v)
    return values, raw


def _conv_dirs(root: Path) -> list[Path]:
    if (root / "record.json").is_file():
        return [root]
    base = root / "records" if (root / "records").is_dir() else root
    return sorted(
        d
        for d in base.iterdir()
        if d.is_dir() and (d / "record.json").is_file() and not FAILED_ATTEMPT_RE.match(d.name)
    )


def load_scores(run_dir: str | Path) -> dict[ConvKey, ConvScores]:
    """Every final conversation of a run (archived failed attempts left out), by pairing key."""
    root = Path(run_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"run folder not found: {root}")
    out: dict[ConvKey, ConvScores] = {}
    for d in _conv_dirs(root):
        rec = read_json_object(d / "record.json")
        try:
            key = ConvKey(
                str(rec["domain"]),
                str(rec["scenario_id"]),
                str(rec.get("condition") or "clean"),
                int(rec["trial"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{d / 'record.json'}: missing or bad field {exc}") from None
        m_path = d / "metrics.json"
        scored = m_path.is_file()
        metrics = read_json_object(m_path) if scored else {}
        values, raw = metric_values(metrics)
        status = str(metrics.get("status") or rec.get("status") or "unknown")
        if key in out:
            raise ValueError(f"{d}: a second conversation for {key.label()} (also {out[key].record_id})")
        out[key] = ConvScores(key, d.name, status, scored, values, raw, _data_hash(d))
    if not out:
        raise ValueError(f"{root}: no conversation records found (expected records/<id>/record.json)")
    return out


def dataset_sha(run_dir: str | Path) -> str | None:
    """The dataset hash ``run.json`` recorded, if any."""
    p = Path(run_dir) / "run.json"
    if not p.is_file():
        return None
    ds = read_json_object(p).get("dataset")
    return str(ds["sha256"]) if isinstance(ds, dict) and ds.get("sha256") else None
