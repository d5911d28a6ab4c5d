"""Pool a set of voxbench calls into τ-voice's panel (sum numerators and denominators over
calls, as τ-voice pools the simulations of a domain), at both resolutions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from voxbench.eval.tau_voice.calls import counts_from_fractions
from voxbench.eval.tau_voice.panel import FIELDS, MIN_EVENTS

PREFIX = "tau_"


def pooled_panel(per_call: Iterable[Mapping[str, Mapping[str, Any]]]) -> dict[str, Any] | None:
    """`per_call`: each call's metric details by metric name (`tau_<field>` -> details).
    None when no call carries the panel's metrics."""
    sums: dict[str, dict[str, list[float]]] = {"grid": {}, "native": {}}
    calls = 0
    for details in per_call:
        seen = False
        for field, _, _ in FIELDS:
            d = details.get(PREFIX + field)
            if not d:
                continue
            seen = True
            for res in ("grid", "native"):
                part = d.get(res) or {}
                acc = sums[res].setdefault(field, [0.0, 0])
                acc[0] += float(part.get("num") or 0.0)
                acc[1] += int(part.get("den") or 0)
        calls += seen
    if not calls:
        return None
    out: dict[str, Any] = {"calls": calls, "min_events": MIN_EVENTS}
    for res, fr in sums.items():
        fracs = {f: (fr.get(f, [0.0, 0])[0], int(fr.get(f, [0.0, 0])[1])) for f, _, _ in FIELDS}
        block: dict[str, Any] = {f: (n / d if d else None) for f, (n, d) in fracs.items()}
        block["counts"] = counts_from_fractions(fracs)
        block["support"] = {f: d for f, (_, d) in fracs.items()}
        out[res] = block
    return out


def panel_lines(name: str, panel: Mapping[str, Any]) -> list[str]:
    """One system's panel: per field the grid value, the native one, and the events behind
    each; a rate backed by fewer than MIN_EVENTS events is hidden ('(n<10)'), as τ-voice's
    leaderboard hides it."""
    lines = [f"τ-voice panel, {name} ({panel['calls']} calls): field  200ms-grid [n]  native [n]"]
    for field, sym, _ in FIELDS:
        cells = []
        for res in ("grid", "native"):
            v, n = panel[res][field], panel[res]["support"][field]
            cells.append("-" if v is None else (f"{v:.3f}" if n >= MIN_EVENTS else "(n<10)") + f" [{n}]")
        lines.append(f"  {sym:<5}{field:<26}{cells[0]:>16}{cells[1]:>16}")
    c = panel["grid"]["counts"]
    lines.append("  grid counts: " + ", ".join(f"{k}={v}" for k, v in c.items()))
    return lines
