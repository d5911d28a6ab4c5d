"""Metric results and the metric registry.

A metric is a pure function `(context, config) -> MetricResult`: no clock, no network,
no globals. LLM judges arrive through `config.judge` (a `Judge` protocol object), so
tests pass a fake. "Could not compute" is a value: `MetricResult.skip(...)` or
`MetricResult.fail(...)` give `score=None` with `skipped=True` / `error=...`, never 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from voxbench.eval.context import ConversationContext
    from voxbench.eval.judges.base import Judge

Category = Literal["accuracy", "experience", "diagnostic", "validation"]
JudgeMode = Literal["auto", "offline", "llm", "none"]
"""How the judge metrics are rated: `llm` asks `EvalConfig.judge`; `offline` uses the registered
offline methods (`voxbench.eval.offline`, no model server); `none` leaves them unscored;
`auto` (the default) is `llm` when a judge is injected, else `offline`."""


class MetricResult(BaseModel):
    """One metric's outcome on one conversation, saying how it was made."""

    name: str
    score: float | None = None
    normalized_score: float | None = None
    details: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    skipped: bool = False
    version: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    judge_model: str | None = None
    prompt_hash: str | None = None
    sub_metrics: dict[str, MetricResult] = Field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """A usable value: neither errored nor skipped."""
        return self.error is None and not self.skipped and self.value is not None

    @property
    def value(self) -> float | None:
        """`normalized_score`, falling back to `score` (EVA's `get_score`)."""
        return self.normalized_score if self.normalized_score is not None else self.score

    @classmethod
    def skip(cls, name: str, reason: str, **kw: Any) -> MetricResult:
        return cls(name=name, skipped=True, details={"skip_reason": reason, **kw.pop("details", {})}, **kw)

    @classmethod
    def unscored(cls, name: str, reason: str, **kw: Any) -> MetricResult:
        """Could not be computed here (no judge, no audio): skipped AND missing for composites,
        unlike a skip that means "not applicable" (e.g. no turn carried entities)."""
        res = cls.skip(name, reason, **kw)
        res.details["unscored"] = True
        return res

    @classmethod
    def fail(cls, name: str, error: str, **kw: Any) -> MetricResult:
        return cls(name=name, error=error, **kw)


def sub(name: str, value: float | None, normalized: bool = True) -> MetricResult:
    """A flat sub-metric; raw quantities (ms, counts) carry no normalized score.

    Speed (issue 18): a record makes ~60 of these (turn_taking alone ~20); pydantic's
    validating constructor took 2.2 us a sub-metric, building the instance 1.3 us (pydantic
    2.14, load 0.5; `model_construct`, the library's unvalidated path, took 29 us), so
    ~50 us of a record's ~5 ms. For the arguments it would pass through unchanged (a str
    name, a float or None) the instance is built directly: the same field values in the same order, the same fields set, no extra or
    private attributes (tests/eval/test_throughput_paths.py compares both ways). Anything
    else (an int that validation turns into a float, ...) is validated as before."""
    if type(name) is str and (value is None or type(value) is float):
        m = _new(MetricResult)
        _setattr(m, "__dict__", _sub_fields(name, value, value if normalized else None))
        _setattr(m, "__pydantic_fields_set__", {"name", "score", "normalized_score", "skipped"})
        _setattr(m, "__pydantic_extra__", None)
        _setattr(m, "__pydantic_private__", None)
        return m
    return MetricResult(
        name=name,
        score=value,
        normalized_score=value if normalized else None,
        skipped=value is None,
    )


_new = object.__new__
_setattr = object.__setattr__


def _sub_fields(name: str, score: float | None, normalized: float | None) -> dict[str, Any]:
    """A sub-metric's field values, in MetricResult's field order (as validation leaves them)."""
    return {
        "name": name,
        "score": score,
        "normalized_score": normalized,
        "details": {},
        "error": None,
        "skipped": score is None,
        "version": "",
        "params": {},
        "judge_model": None,
        "prompt_hash": None,
        "sub_metrics": {},
    }


@dataclass
class EvalConfig:
    """What a metric may read besides the context. Judges are injected, never built inside."""

    judge: Judge | None = None
    audio_judge: Judge | None = None
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    judge_mode: JudgeMode = "auto"

    def text_judge_mode(self) -> Literal["offline", "llm", "none"]:
        """The mode in effect: `auto` resolves to `llm` with a judge injected, else `offline`."""
        if self.judge_mode == "auto":
            return "llm" if self.judge is not None else "offline"
        return self.judge_mode

    def for_metric(self, name: str) -> dict[str, Any]:
        return self.params.get(name, {})


MetricFn = Callable[["ConversationContext", EvalConfig], MetricResult]


@dataclass(frozen=True)
class MetricSpec:
    name: str
    fn: MetricFn
    category: Category
    version: str
    higher_is_better: bool = True
    pass_threshold: float | None = 0.5
    exclude_from_pass_at_k: bool = False
    needs_judge: bool = False
    default: bool = True
    description: str = ""


REGISTRY: dict[str, MetricSpec] = {}


def metric(
    name: str,
    *,
    category: Category,
    version: str,
    higher_is_better: bool = True,
    pass_threshold: float | None = 0.5,
    exclude_from_pass_at_k: bool = False,
    needs_judge: bool = False,
    default: bool = True,
) -> Callable[[MetricFn], MetricFn]:
    """Register a metric function under `name` (decorator)."""

    def deco(fn: MetricFn) -> MetricFn:
        if name in REGISTRY and REGISTRY[name].fn is not fn:
            raise ValueError(f"metric {name!r} registered twice")
        REGISTRY[name] = MetricSpec(
            name=name,
            fn=fn,
            category=category,
            version=version,
            higher_is_better=higher_is_better,
            pass_threshold=pass_threshold,
            exclude_from_pass_at_k=exclude_from_pass_at_k,
            needs_judge=needs_judge,
            default=default,
            description=(fn.__doc__ or "").strip().split("\n")[0],
        )
        return fn

    return deco


def prompt_hash(text: str) -> str:
    """Short, stable id of a judge prompt template (12 hex chars like EVA's)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def run_metric(spec: MetricSpec, ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Call one metric; an exception becomes an explicit error result, never a 0."""
    try:
        res = spec.fn(ctx, config)
    except Exception as exc:  # metric bugs and judge failures are data, not crashes
        res = MetricResult.fail(spec.name, f"{type(exc).__name__}: {exc}")
    res.version = res.version or spec.version
    return res
