"""Finding the records of a run and loading each as a `ConversationContext`: voxbench's own
(record.json) or EVA's (records/<id>[/trial_i]/result.json), skipping archived attempts, with
what every EVA record of one run shares read once."""

import re
from dataclasses import dataclass
from pathlib import Path

from voxbench.eval.context import ConversationContext
from voxbench.eval.eva_dataset import EvaDataset
from voxbench.eval.eva_format import domain_from_config, is_eva_record, load_eva_context
from voxbench.eval.from_record import load_context

_ARCHIVED = re.compile(r"_(failed_attempt|attempt|unvalidated)_\d+$")


@dataclass
class FoundRecord:
    path: Path
    kind: str  # "voxbench" | "eva"
    record_id: str


def discover(run_dir: Path) -> list[FoundRecord]:
    """voxbench: every directory holding record.json; EVA: records/<id>[/trial_i]/result.json
    (archived `_failed_attempt_N` folders are skipped: they are not the final attempt)."""
    out: list[FoundRecord] = []
    for p in sorted(run_dir.rglob("record.json")):
        rel = str(p.parent.relative_to(run_dir))
        if not _ARCHIVED.search(rel):
            out.append(FoundRecord(p.parent, "voxbench", rel))
    if not out:
        recs = run_dir / "records" if (run_dir / "records").is_dir() else run_dir
        for p in sorted(recs.rglob("result.json")):
            rel = str(p.parent.relative_to(recs))
            if _ARCHIVED.search(rel) or not is_eva_record(p.parent):
                continue
            out.append(FoundRecord(p.parent, "eva", rel))
    return out


class EvaRunInputs:
    """What every EVA record of one run shares, read once per run: the run's domain (from
    its config.json) and the dataset (scenarios, agent spec). Reading these again for each
    record cost more than scoring it."""

    def __init__(self, run_dir: Path, eva_dataset: Path | None) -> None:
        self.run_dir = run_dir
        self.dataset = EvaDataset(eva_dataset) if eva_dataset is not None else None
        self._domain: tuple[str | None] | None = None

    @property
    def domain(self) -> str | None:
        if self._domain is None:
            self._domain = (domain_from_config(self.run_dir) or domain_from_config(self.run_dir.parent),)
        return self._domain[0]


def load_any(
    found: FoundRecord,
    run_dir: Path,
    eva_dataset: Path | None,
    pipeline_type: str,
    shared: EvaRunInputs | None = None,
) -> ConversationContext:
    """Load one found record; pass the run's `shared` inputs when loading many."""
    if found.kind == "voxbench":
        return load_context(found.path)
    shared = shared or EvaRunInputs(run_dir, eva_dataset)
    return load_eva_context(
        found.path,
        record_id=found.record_id,
        domain=shared.domain,
        pipeline_type=pipeline_type,
        dataset=shared.dataset,
    )
