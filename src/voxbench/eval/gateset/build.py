"""Generate the labelled validation set: per scenario, a clean record and one record per
fault kind, each labelled with who is at fault (`labels.jsonl`, beside the records; the
records themselves carry no label, so a validator cannot read it)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from voxbench.eval.gateset.conversation import from_scenario, to_record
from voxbench.eval.gateset.faults import FAULTS, reference_fault
from voxbench.records import atomic_write_bytes, derive_seed
from voxbench.scenarios.loader import load_dataset

LABELS = "labels.jsonl"
SEED_NAMESPACE = "voxbench.gateset.v1"


class GateLabel(BaseModel):
    """Who spoiled a labelled record: nobody (clean), the caller or the agent."""

    record: str  # path relative to the set folder
    domain: str
    scenario_id: str
    kind: str  # "clean" or a fault kind of `FAULTS`
    at_fault: Literal["none", "caller", "agent"]
    step: int | None = None
    injected: str = ""
    source: str = ""  # the dataset folder it was generated from


def generate(
    out: Path,
    dataset: str | Path | None = None,
    seed: int = 0,
    domains: list[str] | None = None,
    kinds: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[GateLabel], dict[str, int]]:
    """Write the set under `out` (one folder per record) and its labels; returns the labels
    and how many (kind) injections did not apply to a scenario."""
    ds = load_dataset(dataset, domains)
    source = str(ds.root)
    labels: list[GateLabel] = []
    skipped: dict[str, int] = {}
    for dom, dd in ds.domains.items():
        for sid in sorted(dd.scenarios):
            ref = from_scenario(dd, sid)
            if ref is None:
                skipped["no_reference_trace"] = skipped.get("no_reference_trace", 0) + 1
                continue
            broken = reference_fault(ref)
            if broken is not None:
                skipped[broken] = skipped.get(broken, 0) + 1
                continue
            if progress:
                progress(f"{dom}/{sid}")
            rel = f"{dom}/{sid}__clean"
            to_record(ref, out / rel, f"{dom}__{sid}__clean", seed)
            labels.append(
                GateLabel(
                    record=rel, domain=dom, scenario_id=sid, kind="clean", at_fault="none", source=source
                )
            )
            for kind, (party, inject) in FAULTS.items():
                if kinds and kind not in kinds:
                    continue
                s = derive_seed(SEED_NAMESPACE, seed, dom, sid, kind)
                got = inject(ref, random.Random(s))
                if got is None:
                    skipped[kind] = skipped.get(kind, 0) + 1
                    continue
                rel = f"{dom}/{sid}__{kind}"
                to_record(got.conv, out / rel, f"{dom}__{sid}__{kind}", s)
                labels.append(
                    GateLabel(
                        record=rel, domain=dom, scenario_id=sid, kind=kind, at_fault=party,
                        step=got.step, injected=got.what, source=source,
                    )
                )  # fmt: skip
    text = "".join(lab.model_dump_json() + "\n" for lab in labels)
    atomic_write_bytes(out / LABELS, text.encode("utf-8"))
    return labels, skipped


def read_labels(folder: Path) -> list[GateLabel]:
    path = folder / LABELS
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no labels (generate the set with `voxbench judges gateset`)")
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(GateLabel.model_validate(json.loads(line)))
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: bad label: {exc}") from exc
    return out
