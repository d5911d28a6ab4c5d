"""Who judged a number: next to each judge metric, the method that rated it (the LLM judge's
model, or the offline method) and, for offline methods, their measured agreement with human
labels from the calibration shipped with eval (`voxbench.eval.offline.calibration.json`), so
a reader weighs an offline-judged number by what it is worth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from voxbench.eval.offline._shipped import honest_figure, measured_agreement
from voxbench.reports.html import chip, e
from voxbench.reports.model import Conversation, MetricView


def method_of(m: MetricView) -> str | None:
    """'offline:<method>', 'LLM <model>', or None for a metric no judge rated."""
    params = m.raw.get("params") if isinstance(m.raw.get("params"), dict) else {}
    method = (params or {}).get("method")
    if isinstance(method, str) and method.startswith("offline:"):
        return method
    return f"LLM {m.judge_model}" if m.judge_model else None


def agreement_text(metric: str, agreement: dict[str, Any] | None = None) -> tuple[str, bool]:
    """('acc 0.90 · κ 0.77 (test half of EVA's visible labels, n 112)', low_confidence) from
    the shipped calibration: the test-half figure, else k-fold CV, else the in-sample one
    (`honest_figure`), never the in-sample figure when an honest one exists."""
    a = measured_agreement(metric) if agreement is None else agreement
    if not a or a.get("accuracy") is None:
        return "agreement with human labels not measured", True
    src, tag = honest_figure(a)
    how = {
        "test half": "test half of EVA's visible labels",
        "test half (read when written)": "test half of EVA's visible labels, read when the method was written",
        "CV": f"{(a.get('cv') or {}).get('folds')}-fold CV",
        "in-sample": "in-sample on EVA's visible labels",
    }[tag]
    kappa = src.get("cohen_kappa")
    k = f" · κ {kappa:.2f}" if isinstance(kappa, float) else ""
    return f"human agreement: acc {src['accuracy']:.2f}{k} ({how}, n {src.get('n', a.get('n'))})", bool(
        a.get("low_confidence")
    )


def judge_note(metric: str, views: Iterable[MetricView]) -> str:
    """HTML under a metric's name: the method(s) that rated it and their agreement."""
    methods = Counter(x for v in views if v.ok and (x := method_of(v)) is not None)
    if not methods:
        return ""
    parts = []
    for method, _ in methods.most_common():
        if method.startswith("offline:"):
            text, low = agreement_text(metric)
            badge = " " + chip("low confidence", "warn", "weak agreement with human labels") if low else ""
            parts.append(f"{e(method)} · {e(text)}{badge}")
        else:
            parts.append(e(method))
    return "<div class='sub judged-by'>judged by " + "; ".join(parts) + "</div>"


def conversations_note(metric: str, convs: Iterable[Conversation]) -> str:
    return judge_note(metric, (c.metrics[metric] for c in convs if metric in c.metrics))


COMPOSITE_JUDGED = {"EVA-A": ("faithfulness",), "EVA-X": ("conversation_progression", "conciseness")}


def composites_note(convs: list[Conversation]) -> str:
    """A line under the composite table when the EVA-A / EVA-X judge components were rated by
    offline methods: which ones, with their measured agreement."""
    parts = []
    for comp, metrics in COMPOSITE_JUDGED.items():
        for m in metrics:
            views = [c.metrics[m] for c in convs if m in c.metrics and c.metrics[m].ok]
            offline = sorted({x for v in views if (x := method_of(v)) and x.startswith("offline:")})
            if offline:
                text, low = agreement_text(m)
                flag = " (low confidence)" if low else ""
                parts.append(f"{comp} {m}: {', '.join(offline)}, {text}{flag}")
    if not parts:
        return ""
    return "<p class='muted judged-by'><b>Offline-judged:</b> " + e("; ".join(parts)) + "</p>"
