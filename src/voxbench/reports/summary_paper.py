"""Plain-text lines for the paper's analyses (`voxbench eval --analyses`)."""

from __future__ import annotations

from typing import Any

LABEL = {"EVA-A_pass": "EVA-A", "EVA-X_pass": "EVA-X"}


def _n(v: float | None, d: int = 2) -> str:
    return "-" if v is None else f"{v:.{d}f}"


def _p(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.0f}%"


def _ci(ci: list[float | None] | None) -> str:
    return "" if not ci or ci[0] is None else f" [{_n(ci[0])}, {_n(ci[1])}]"


def gap_lines(b: dict[str, Any]) -> list[str]:
    out = ["pass@1 vs pass^k (gap = pass@k - pass^k, 95% CI over scenarios):"]
    if "per_system" not in b:
        return [*out, f"  {b['note']}"]
    for s, per in b["per_system"].items():
        parts = [
            f"{LABEL[c]} pass@1 {_n(g['pass_at_1'])} pass^{g['k']} {_n(g['pass_power_k'])} gap {_n(g['gap'])}{_ci(g['gap_ci'])}"
            for c, g in per.items()
        ]
        out.append(f"  {s}: " + ("; ".join(parts) or "no scenario with EVA-A or EVA-X known on every trial"))
    med = ", ".join(f"{LABEL[c]} {_n(v)}" for c, v in b["median_gap"].items())
    fr = b["frontier"]
    out.append(f"  median gap: {med}; frontier pass@1: {', '.join(fr['pass_at_1']) or '-'}; "
               f"pass^k: {', '.join(fr['pass_power_k']) or '-'}")  # fmt: skip
    return out + ([f"  {b['note']}"] if b.get("note") else [])


def trial_lines(b: dict[str, Any]) -> list[str]:
    out = [f"pass@1 CI width by trials (median width; share within +-{b['tolerance']} of full K):"]
    if "per_system" not in b:
        return [*out, f"  {b['note']}"]
    for s, per in b["per_system"].items():
        for c, blk in per.items():
            pts = ", ".join(
                f"k={x['k']} {_n(x['median_ci_width'], 3)} ({_p(x['share_within_tol'])})"
                for x in blk["curve"]
            )
            out.append(f"  {s} {LABEL[c]}: {pts}")
    return out + ([f"  {b['note']}"] if b.get("note") else [])


def sweep_lines(b: dict[str, Any]) -> list[str]:
    out = [f"{b['moves']} pass@1 as the {b['metric']} threshold moves (chosen {b['chosen']:g}):"]
    if "per_system" not in b:
        return [*out, f"  {b['note']}"]
    w = max(len("threshold"), *(len(s) for s in b["per_system"]))
    out.append(f"  {'threshold':<{w}}  " + " ".join(f"{t:>5g}" for t in b["grid"]))
    for s, per in b["per_system"].items():
        out.append(f"  {s:<{w}}  " + " ".join(f"{_n(v):>5}" for v in per["pass_at_1"]))
    return out + ([f"  {b['note']}"] if b.get("note") else [])


def _ke(label: str, blk: dict[str, Any]) -> str:
    r = (
        f"r {_n(blk['r'])} (p {_n(blk['p'], 3)}, n {blk['n']})"
        if blk.get("r") is not None
        else f"r - ({blk.get('note')})"
    )
    return (f"  {label}: {r}; completion >= cut {_p(blk['completion_above'])} (n {blk['n_above']}), "
            f"below {_p(blk['completion_below'])} (n {blk['n_below']})")  # fmt: skip


def ke_lines(b: dict[str, Any]) -> list[str]:
    out = [f"key-entity transcription vs task completion (cut {_p(b['cut'])}):"]
    if not b.get("per_system"):
        return [*out, f"  {b['note']}"]
    out += [_ke(s, blk) for s, blk in b["per_system"].items()]
    out += [_ke(f"domain {d}", blk) for d, blk in b["per_domain"].items()]
    ac = b["across_systems"]
    out.append(
        f"  across systems: r {_n(ac['r'])} (p {_n(ac['p'], 3)})"
        if ac.get("r") is not None
        else f"  across systems: {ac['note']}"
    )
    return out


def faith_lines(b: dict[str, Any]) -> list[str]:
    out = ["faithfulness vs task completion:"]
    if "per_system" not in b:
        return [*out, f"  {b['note']}"]
    for s, x in [*b["per_system"].items(), ("all", b["all"])]:
        out.append(
            f"  {s}: completed tasks with a deviation {_p(x['share_completed_with_deviation'])} "
            f"({x['completed_with_deviation']}/{x['completed']}); deviations in failed tasks "
            f"{_p(x['share_deviations_in_failed_tasks'])} ({x['deviations_in_failed_tasks']}/{x['deviations']})"
        )
    return out


def facet_lines(b: dict[str, Any]) -> list[str]:
    out = ["facets by architecture (component means; tool / other turn latency, median s):"]
    if "per_type" not in b:
        return [*out, f"  {b['note']}"]
    for t, blk in b["per_type"].items():
        comps = ", ".join(f"{m} {_n(c['mean'])}" for m, c in blk["components"].items())
        lat = blk["latency"]
        out.append(f"  {t} ({', '.join(blk['systems'])}; {blk['conversations']} conv.): {comps}; "
                   f"latency tool {_n(lat['tool']['median'])} / other {_n(lat['no_tool']['median'])}")  # fmt: skip
    return out + ([f"  {b['note']}"] if b.get("note") else [])


def paper_lines(out: dict[str, Any]) -> list[str]:
    """All six analyses, as `voxbench eval --analyses` prints them."""
    head = f"the EVA-Bench paper's analyses ({out['conversations']} clean conversations, systems: {', '.join(out['systems']) or '-'}):"
    lines = [head, *gap_lines(out["passk_gap"]), *trial_lines(out["trial_count"])]
    for sweep in out["thresholds"]:
        lines += sweep_lines(sweep)
    return (
        lines + ke_lines(out["key_entities"]) + faith_lines(out["faithfulness"]) + facet_lines(out["facets"])
    )
