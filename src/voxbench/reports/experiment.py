"""Read ``experiment.json``, the comparison ``voxbench experiment`` leaves in a run folder.

The file crosses a boundary (it is written by the orchestrator, possibly on another machine
or by an older version), so the report validates it with typed models instead of indexing
into dicts: a malformed file then fails with the file and the field named, rather than with a
``KeyError`` deep inside the page builder or, worse, a table of wrong numbers.

The shape mirrors ``voxbench.orchestrator.experiment.compare_rows`` (the report may not
import the orchestrator, so the contract is restated here and tested against the writer).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

EXPERIMENT_FILE = "experiment.json"
SUPPORTED_MAJOR = "1"


class ExperimentFileError(ValueError):
    """``experiment.json`` exists but cannot be trusted; the message names file and field."""


class ComparisonRow(BaseModel):
    """One metric under one condition, paired by scenario against the baseline.

    ``delta`` is condition minus baseline over the per-scenario means, so its sign reads
    against the metric's direction (a drop is worse for normalised scores, a rise is worse
    for raw lower-is-better values such as seconds).
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    metric: str = Field(min_length=1)
    n_pairs: int = Field(ge=1)
    baseline_mean: float
    condition_mean: float
    delta: float
    p_value: float | None = Field(default=None, ge=0.0, le=1.0)
    p_holm: float | None = Field(default=None, ge=0.0, le=1.0)
    significant: bool
    # Optional: the writer does not compute one today; shown when a producer adds it.
    delta_ci: tuple[float, float] | None = None

    @model_validator(mode="after")
    def _ci_is_ordered(self) -> ComparisonRow:
        if self.delta_ci is not None and self.delta_ci[0] > self.delta_ci[1]:
            raise ValueError("delta_ci must be [low, high] with low <= high")
        return self


class Experiment(BaseModel):
    """The whole ``experiment.json``: what was compared to what, and the per-condition tables."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    schema_version: str
    baseline: str = Field(min_length=1)
    conditions: list[str]
    scenarios: list[str]
    alpha: float = Field(gt=0.0, lt=1.0)
    test: str = ""
    value: str = ""
    counts: dict[str, dict[str, int]] = Field(default_factory=dict)
    comparisons: dict[str, list[ComparisonRow]]
    run_id: str | None = None

    @field_validator("schema_version")
    @classmethod
    def _known_major(cls, v: str) -> str:
        # A newer major version may change what the numbers mean: refuse rather than misread.
        if v.split(".", 1)[0] != SUPPORTED_MAJOR:
            raise ValueError(f"unsupported schema_version {v!r} (this report reads {SUPPORTED_MAJOR}.x)")
        return v


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def load_experiment(run_dir: Path) -> Experiment | None:
    """The run's experiment, or None when the run was not an experiment.

    Raises:
        ExperimentFileError: the file is not JSON or does not match the schema; the message
            names the path and every offending field so the user can fix or delete it.
    """
    path = Path(run_dir) / EXPERIMENT_FILE
    if not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExperimentFileError(f"{path}: not readable JSON ({exc})") from None
    try:
        return Experiment.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(f"field {_loc(err['loc'])}: {err['msg']}" for err in exc.errors())
        raise ExperimentFileError(f"{path}: malformed experiment file: {problems}") from None
