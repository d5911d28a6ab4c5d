"""The report's τ-voice panel: per system (and condition), the eight fields pooled over its
calls on the 200 ms grid and natively, with the counts; a rate backed by fewer than 10 events
is hidden, as τ-voice's leaderboard hides it."""

from __future__ import annotations

from voxbench.eval.tau_voice.pool import PREFIX, panel_lines, pooled_panel
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
