"""τ-voice's interaction panel as eval metrics on voxbench's own calls (docs/tau-voice.md).

Eight metrics, one per τ-voice field, from the sample-accurate speech stamps of both sides and
the caller's `caller_act` events. The score is the value on τ-voice's 200 ms tick grid (its
rules exactly, so a voxbench call and a τ-voice simulation are scored alike); the `native`
sub-metric is the same rule on the stamps' own resolution. `details` keeps each resolution's
numerator and denominator, so a run pools calls as τ-voice pools simulations
(`voxbench.eval.tau_voice.pool`). A call with no event for a field is skipped for it.
"""

from __future__ import annotations

from collections.abc import Callable

from voxbench.eval.context import ConversationContext
from voxbench.eval.tau_voice.calls import call_events, fractions, value
from voxbench.eval.tau_voice.panel import FIELDS
from voxbench.eval.types import EvalConfig, MetricFn, MetricResult, metric, sub

PREFIX = "tau_"
VERSION = "v1-tau-voice"
METRIC_NAMES = tuple(PREFIX + f for f, _, _ in FIELDS)


def _make(field: str, symbol: str) -> Callable[[ConversationContext, EvalConfig], MetricResult]:
    name = PREFIX + field

    def fn(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
        ev = call_events(ctx)
        grid, native = fractions(ev["grid"])[field], fractions(ev["native"])[field]
        details = {
            "grid": {"num": grid[0], "den": grid[1], "tick_duration_sec": 0.2},
            "native": {"num": native[0], "den": native[1]},
        }
        subs = {"native": sub("native", value(native), normalized=False)}
        g = value(grid)
        if g is None:
            return MetricResult.skip(
                name, f"no {symbol} event on the tick grid", details=details, sub_metrics=subs
            )
        return MetricResult(name=name, score=g, details=details, sub_metrics=subs)

    fn.__doc__ = f"τ-voice {symbol} ({field}) on the 200 ms tick grid; `native`: at the stamps' resolution."
    fn.__name__ = name
    return fn


def _register() -> dict[str, MetricFn]:
    out: dict[str, MetricFn] = {}
    for field, symbol, direction in FIELDS:
        out[PREFIX + field] = metric(
            PREFIX + field,
            category="diagnostic",
            version=VERSION,
            higher_is_better=direction == "up",
            pass_threshold=None,
            exclude_from_pass_at_k=True,
        )(_make(field, symbol))
    return out


METRICS = _register()
