"""The report's τ-voice panel: per system (and condition), the eight fields pooled over its
calls on the 200 ms grid and natively, with the counts; a rate backed by fewer than 10 events
is hidden, as τ-voice's leaderboard hides it."""

from __future__ import annotations

from typing import Any

from voxbench.eval.tau_voice.panel import FIELDS, MIN_EVENTS
from voxbench.eval.tau_voice.pool import PREFIX, panel_lines, pooled_panel
from voxbench.reports.html import e, table
from voxbench.reports.model import Conversation
from voxbench.reports.tables import by_key


def panel_section(convs: list[Conversation]) -> list[str]:
    """Lines of the panel per system x condition; none when no call carries the metrics."""
    out: list[str] = []
    for system, cs in by_key(convs, "system").items():
        for cond, group in by_key(cs, "condition").items():
            panel = pooled_panel(
                {n: m.details for n, m in c.metrics.items() if n.startswith(PREFIX)} for c in group
            )
            if panel is not None:
                out += panel_lines(f"{system} / {cond}", panel)
    return out


def _cell(panel: dict[str, Any], res: str, field: str) -> str:
    v, n = panel[res][field], panel[res]["support"][field]
    if v is None:
        return "<td>-</td>"
    shown = (
        f"{v:.3f}"
        if n >= MIN_EVENTS
        else "<span title='fewer than 10 events: hidden as τ-voice hides it'>n&lt;10</span>"
    )
    return f"<td>{shown} <small>[{n}]</small></td>"


def panel_html(convs: list[Conversation]) -> str:
    """The index page's section: one table per system x condition (empty without the metrics)."""
    parts: list[str] = []
    for system, cs in by_key(convs, "system").items():
        for cond, group in by_key(cs, "condition").items():
            panel = pooled_panel(
                {n: m.details for n, m in c.metrics.items() if n.startswith(PREFIX)} for c in group
            )
            if panel is None:
                continue
            rows = [
                f"<tr><td>{sym}</td><td><code>{field}</code></td>{_cell(panel, 'grid', field)}"
                f"{_cell(panel, 'native', field)}</tr>"
                for field, sym, _ in FIELDS
            ]
            counts = ", ".join(f"{k}={v}" for k, v in panel["grid"]["counts"].items())
            parts.append(
                f"<h3>{e(system)} / {e(cond)} ({panel['calls']} calls)</h3>"
                + table(["", "field", "200 ms grid [events]", "native [events]"], rows)
                + f"<p><small>grid counts: {e(counts)}</small></p>"
            )
    if not parts:
        return ""
    return (
        "<section><h2>τ-voice interaction panel</h2><p>τ-voice's eight interaction metrics pooled over "
        "the calls (docs/tau-voice.md): on its 200 ms tick grid and at the stamps' own resolution.</p>"
        + "".join(parts)
        + "</section>"
    )
