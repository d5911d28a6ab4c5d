"""Inline SVG plots, generated in Python: no plotting library, no network."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2", "#dc2626", "#65a30d")


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _f(v: float) -> str:
    return f"{v:.1f}"


@dataclass
class Point:
    name: str
    x: float
    y: float
    color: str
    xci: tuple[float, float] | None = None
    yci: tuple[float, float] | None = None


def scatter(points: Sequence[Point], frontier: Sequence[str], xlabel: str, ylabel: str, title: str) -> str:
    """Accuracy-vs-experience scatter on [0,1]^2 with CI whiskers and the Pareto frontier."""
    w, h, ml, mr, mt, mb = 460, 380, 56, 20, 34, 50
    pw, ph = w - ml - mr, h - mt - mb

    pad = 0.04  # keep points at 0 or 1 off the frame

    def sx(v: float) -> float:
        return ml + (pad + max(0.0, min(1.0, v)) * (1 - 2 * pad)) * pw

    def sy(v: float) -> float:
        return mt + (1 - pad - max(0.0, min(1.0, v)) * (1 - 2 * pad)) * ph

    parts = [f'<svg class="plot" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)}">']
    parts.append(f'<text class="title" x="{ml}" y="20">{escape(title)}</text>')
    for i in range(6):
        v = i / 5
        parts.append(f'<line class="grid" x1="{_f(sx(v))}" y1="{mt}" x2="{_f(sx(v))}" y2="{mt + ph}"/>')
        parts.append(f'<line class="grid" x1="{ml}" y1="{_f(sy(v))}" x2="{ml + pw}" y2="{_f(sy(v))}"/>')
        parts.append(
            f'<text class="tick" x="{_f(sx(v))}" y="{mt + ph + 16}" text-anchor="middle">{v:.1f}</text>'
        )
        parts.append(f'<text class="tick" x="{ml - 8}" y="{_f(sy(v) + 4)}" text-anchor="end">{v:.1f}</text>')
    parts.append(f'<rect class="frame" x="{ml}" y="{mt}" width="{pw}" height="{ph}"/>')
    parts.append(
        f'<text class="axis" x="{ml + pw / 2}" y="{h - 10}" text-anchor="middle">{escape(xlabel)}</text>'
    )
    parts.append(
        f'<text class="axis" transform="translate(16 {mt + ph / 2}) rotate(-90)" text-anchor="middle">{escape(ylabel)}</text>'
    )
    if not points:
        parts.append(
            f'<text class="tick" x="{ml + pw / 2}" y="{mt + ph / 2}" text-anchor="middle">'
            "no system has both EVA-A and EVA-X values (judge metrics need a judge)</text>"
        )
    front = sorted((p for p in points if p.name in frontier), key=lambda p: p.x)
    if front:
        # staircase: from the top-left point down to the right, the region nobody beats
        d = f"M{_f(sx(0))},{_f(sy(front[0].y))}"
        for a, b in itertools.pairwise(front):
            d += f" L{_f(sx(a.x))},{_f(sy(a.y))} L{_f(sx(a.x))},{_f(sy(b.y))}"
        d += f" L{_f(sx(front[-1].x))},{_f(sy(front[-1].y))} L{_f(sx(front[-1].x))},{_f(sy(0))}"
        parts.append(f'<path class="frontier" d="{d}"><title>Pareto frontier</title></path>')
    for p in points:
        cx, cy = sx(p.x), sy(p.y)
        if p.xci:
            parts.append(
                f'<line class="ci" stroke="{p.color}" x1="{_f(sx(p.xci[0]))}" y1="{_f(cy)}" x2="{_f(sx(p.xci[1]))}" y2="{_f(cy)}"/>'
            )
        if p.yci:
            parts.append(
                f'<line class="ci" stroke="{p.color}" x1="{_f(cx)}" y1="{_f(sy(p.yci[0]))}" x2="{_f(cx)}" y2="{_f(sy(p.yci[1]))}"/>'
            )
        on = " on-front" if p.name in frontier else ""
        tip = f"{p.name}: {xlabel} {p.x:.2f}, {ylabel} {p.y:.2f}"
        parts.append(
            f'<circle class="pt{on}" cx="{_f(cx)}" cy="{_f(cy)}" r="6" fill="{p.color}"><title>{escape(tip)}</title></circle>'
        )
        anchor, dx = ("end", -9) if p.x > 0.7 else ("start", 9)
        parts.append(
            f'<text class="lbl" x="{_f(cx + dx)}" y="{_f(cy - 8)}" text-anchor="{anchor}">{escape(p.name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def gap_chart(
    rows: Sequence[tuple[str, float | None, float | None, float | None, str]], title: str, k: int
) -> str:
    """Per system: pass^k ... pass@1 ... pass@k on one line; the bar length is the gap."""
    rows = [r for r in rows if r[1] is not None and r[3] is not None]
    lab = 150
    w, rh, mt = 560, 30, 40
    h = mt + rh * max(1, len(rows)) + 50
    pw = w - lab - 70

    def sx(v: float) -> float:
        return lab + v * pw

    parts = [f'<svg class="plot" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)}">']
    parts.append(f'<text class="title" x="10" y="20">{escape(title)}</text>')
    for i in range(6):
        v = i / 5
        parts.append(f'<line class="grid" x1="{_f(sx(v))}" y1="{mt - 6}" x2="{_f(sx(v))}" y2="{h - 44}"/>')
        parts.append(f'<text class="tick" x="{_f(sx(v))}" y="{h - 30}" text-anchor="middle">{v:.1f}</text>')
    ly = h - 10
    parts.append(
        f'<circle class="pk-low" cx="{lab + 4}" cy="{ly - 4}" r="4" stroke="#374151"/><text class="tick" x="{lab + 12}" y="{ly}">pass^{k}</text>'
        f'<rect x="{lab + 62}" y="{ly - 10}" width="3" height="12" fill="#111"/><text class="tick" x="{lab + 70}" y="{ly}">pass@1</text>'
        f'<circle cx="{lab + 124}" cy="{ly - 4}" r="4" fill="#374151"/><text class="tick" x="{lab + 132}" y="{ly}">pass@{k}</text>'
    )
    if not rows:
        parts.append(
            f'<text class="tick" x="{lab}" y="{mt + 16}">no pass values: composites could not be computed</text>'
        )
    for i, (name, lo, mid, hi, col) in enumerate(rows):
        assert lo is not None and hi is not None
        y = mt + i * rh + rh / 2
        parts.append(
            f'<text class="lbl" x="{lab - 8}" y="{_f(y + 4)}" text-anchor="end">{escape(name)}</text>'
        )
        tip = f"{name}: pass^{k} {lo:.2f}, pass@1 {mid if mid is None else round(mid, 2)}, pass@{k} {hi:.2f}, gap {hi - lo:.2f}"
        parts.append(
            f'<g><title>{escape(tip)}</title><line class="gapbar" stroke="{col}" x1="{_f(sx(lo))}" y1="{_f(y)}" x2="{_f(sx(hi))}" y2="{_f(y)}"/>'
        )
        parts.append(f'<circle class="pk-low" cx="{_f(sx(lo))}" cy="{_f(y)}" r="5" stroke="{col}"/>')
        parts.append(f'<circle cx="{_f(sx(hi))}" cy="{_f(y)}" r="5" fill="{col}"/>')
        if mid is not None:
            parts.append(f'<rect x="{_f(sx(mid) - 1.5)}" y="{_f(y - 8)}" width="3" height="16" fill="#111"/>')
        parts.append(f'<text class="tick" x="{_f(sx(hi) + 9)}" y="{_f(y + 4)}">gap {hi - lo:.2f}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def latency_chart(rows: Sequence[tuple[str, list[float], list[float], str]], title: str) -> str:
    """Per system, non-tool and tool turns: every turn as a dot, p50/p90/p95 ticks."""
    import numpy as np

    allv = [v for _, a, b, _ in rows for v in (*a, *b)]
    vmax = max([1.0, *allv]) * 1.05
    lab, w, rh, mt = 190, 620, 22, 40
    nrows = 2 * max(1, len(rows))
    h = mt + rh * nrows + 40
    pw = w - lab - 20

    def sx(v: float) -> float:
        return lab + min(v, vmax) / vmax * pw

    step = _nice_step(vmax)
    parts = [f'<svg class="plot" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)}">']
    parts.append(f'<text class="title" x="10" y="20">{escape(title)}</text>')
    v = 0.0
    while v <= vmax:
        parts.append(f'<line class="grid" x1="{_f(sx(v))}" y1="{mt - 6}" x2="{_f(sx(v))}" y2="{h - 34}"/>')
        parts.append(f'<text class="tick" x="{_f(sx(v))}" y="{h - 20}" text-anchor="middle">{v:g}s</text>')
        v = round(v + step, 6)
    i = 0
    for name, plain, tool, col in rows:
        for kind, vals in (("no tool", plain), ("tool", tool)):
            y = mt + i * rh + rh / 2
            i += 1
            parts.append(
                f'<text class="lbl" x="{lab - 8}" y="{_f(y + 4)}" text-anchor="end">{escape(name)} · {kind}</text>'
            )
            if not vals:
                parts.append(f'<text class="tick" x="{lab + 4}" y="{_f(y + 4)}">no turns</text>')
                continue
            for x in vals:
                parts.append(f'<circle class="dot" cx="{_f(sx(x))}" cy="{_f(y)}" r="3" fill="{col}"/>')
            p50, p90, p95 = (float(q) for q in np.percentile(vals, [50, 90, 95]))
            parts.append(
                f"<g><title>{escape(f'{name} {kind}: n={len(vals)} p50 {p50:.2f}s p90 {p90:.2f}s p95 {p95:.2f}s')}</title>"
                f'<line class="iqr" x1="{_f(sx(p50))}" y1="{_f(y)}" x2="{_f(sx(p95))}" y2="{_f(y)}"/>'
            )
            for q, lbl in ((p50, "50"), (p90, "90"), (p95, "95")):
                parts.append(
                    f'<line class="pct p{lbl}" x1="{_f(sx(q))}" y1="{_f(y - 8)}" x2="{_f(sx(q))}" y2="{_f(y + 8)}"/>'
                )
            parts.append("</g>")
    parts.append(
        f'<text class="tick" x="{lab}" y="{h - 4}">dots: turns · ticks: p50 (thick), p90, p95</text></svg>'
    )
    return "".join(parts)


def _nice_step(vmax: float) -> float:
    for s in (0.25, 0.5, 1, 2, 5, 10, 20, 30, 60):
        if vmax / s <= 8:
            return s
    return 120.0
