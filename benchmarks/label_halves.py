"""The dev and test halves of one of EVA's human-label files, by the shipped split, for the
benches that develop an offline judge on the dev half (docs/judges.md, "The development/test
split"): the file's items (with the agent's policy and tools when the judge reads them), split
by ``voxbench.eval.label_split`` for the file's own contents, or an exit naming the file when
the split was drawn on another one."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

from voxbench.cli.judges import agent_info, find_agent_config
from voxbench.eval.calibration_items import CalibItem, load_items
from voxbench.eval.label_split import halves_of, load_split


class Halves(NamedTuple):
    every: list[CalibItem]
    """All the file's items, in its order."""
    dev: list[CalibItem]
    test: list[CalibItem]


def split_halves(dataset: Path, stem: str, with_agent: bool = True) -> Halves:
    """The items of ``<dataset>/<stem>.jsonl``, all and by half."""
    f = Path(dataset) / f"{stem}.jsonl"
    agent = agent_info(find_agent_config(Path(dataset))) if with_agent else None
    _, items, _ = load_items(f, agent)
    halves = halves_of(stem, items, load_split(), hashlib.sha256(f.read_bytes()).hexdigest())
    if halves is None:
        raise SystemExit(f"{f}: the shipped split does not cover this file (drawn on another one)")
    return Halves(items, halves["dev"], halves["test"])
