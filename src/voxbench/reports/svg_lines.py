"""A line chart in inline SVG (series of points over a numeric x), for the paper's analyses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape


@dataclass
class Series:
    name: str
    color: str
    points: list[tuple[float, float | None]]  # (x, y); y None: a gap in the line
    dashed: bool = False


def _f(v: float) -> str:
    return f"{v:.1f}"


def line_chart(
    series: Sequence[Series],
    xlabel: str,
    ylabel: str,
    title: str,
    *,
    ymax: float | None = None,
    mark_x: float | None = None,
    mark_label: str = "",
) -> str:
    """Lines with dots, y from 0 (to `ymax`, or the largest value), x over the points' range;
    `mark_x` draws a dashed vertical line (the chosen threshold)."""
    longest = max((len(s.name) for s in series), default=0)
    mr = min(280, 44 + round(6.2 * longest))  # room for the legend's longest name
    w, h, ml, mt, mb = 370 + mr, 330, 56, 34, 48
    pw, ph = w - ml - mr, h - mt - mb
    xs = sorted({x for s in series for x, _ in s.points} | ({mark_x} if mark_x is not None else set()))
    ys = [y for s in series for _, y in s.points if y is not None]
    top = ymax if ymax is not None else max([*ys, 1e-9]) * 1.1
    x0, x1 = (xs[0], xs[-1]) if len(xs) > 1 else (0.0, 1.0)

    def sx(v: float) -> float:
        return ml + (v - x0) / ((x1 - x0) or 1.0) * pw

    def sy(v: float) -> float:
        return mt + (1 - min(v, top) / top) * ph

    parts = [f'<svg class="plot" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)}">']
    parts.append(f'<text class="title" x="{ml}" y="20">{escape(title)}</text>')
    for i in range(5):
        v = top * i / 4
        parts.append(f'<line class="grid" x1="{ml}" y1="{_f(sy(v))}" x2="{ml + pw}" y2="{_f(sy(v))}"/>')
        parts.append(f'<text class="tick" x="{ml - 6}" y="{_f(sy(v) + 4)}" text-anchor="end">{v:.2f}</text>')
    for x in xs:
        parts.append(
            f'<text class="tick" x="{_f(sx(x))}" y="{mt + ph + 15}" text-anchor="middle">{x:g}</text>'
        )
    parts.append(f'<rect class="frame" x="{ml}" y="{mt}" width="{pw}" height="{ph}"/>')
    parts.append(
        f'<text class="axis" x="{ml + pw / 2}" y="{h - 8}" text-anchor="middle">{escape(xlabel)}</text>'
    )
    parts.append(
        f'<text class="axis" transform="translate(14 {mt + ph / 2}) rotate(-90)" text-anchor="middle">{escape(ylabel)}</text>'
    )
    if mark_x is not None:
        parts.append(
            f'<line class="frontier" x1="{_f(sx(mark_x))}" y1="{mt}" x2="{_f(sx(mark_x))}" y2="{mt + ph}"/>'
            f'<text class="tick" x="{_f(sx(mark_x) + 4)}" y="{mt + 12}">{escape(mark_label)}</text>'
        )
    for i, s in enumerate(series):
        pts = [(x, y) for x, y in s.points if y is not None]
        if len(pts) > 1:
            d = " ".join(f"{'M' if j == 0 else 'L'}{_f(sx(x))},{_f(sy(y))}" for j, (x, y) in enumerate(pts))
            dash = ' stroke-dasharray="5 3"' if s.dashed else ""
            parts.append(f'<path d="{d}" fill="none" stroke="{s.color}" stroke-width="2"{dash}/>')
        for x, y in pts:
            tip = f"{s.name}: {xlabel} {x:g}, {ylabel} {y:.3f}"
            parts.append(
                f'<circle cx="{_f(sx(x))}" cy="{_f(sy(y))}" r="3.5" fill="{s.color}"><title>{escape(tip)}</title></circle>'
            )
        ly = mt + 8 + 16 * i
        parts.append(
            f'<line x1="{ml + pw + 10}" y1="{ly}" x2="{ml + pw + 26}" y2="{ly}" stroke="{s.color}" stroke-width="2"'
            + (' stroke-dasharray="5 3"' if s.dashed else "")
            + f'/><text class="lbl" x="{ml + pw + 30}" y="{ly + 4}">{escape(s.name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
