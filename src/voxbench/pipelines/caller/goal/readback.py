"""Facts the agent said back to the caller: with the caller's value, or a near miss of it."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.spoken import compact, is_code, mentions, runs


def readbacks(text: str, book: FactBook) -> tuple[list[str], list[str]]:
    """Facts the agent said back: with the caller's value, or with a near miss of it."""
    ok: list[str] = []
    wrong: list[str] = []
    rs = [r for r in runs(text) if any(c.isdigit() for c in r) and len(r) >= 3]
    for f in book:
        if not f.matchable:
            continue
        vals = f.values()
        if any(mentions(text, v) for v in vals):
            ok.append(f.key)
            continue
        for v in vals:
            c = compact(v)
            if sum(ch.isdigit() for ch in c) >= 7 and any(len(r) == 4 and c.endswith(r) for r in rs):
                ok.append(f.key)  # "the phone ending in four eight two nine"
                break
            if len(c) >= 4 and is_code(v) and any(ch.isdigit() for ch in c):
                near = [  # same length, one or two characters off: a mishearing, not another code
                    r
                    for r in rs
                    if len(r) == len(c)
                    and sum(a != b for a, b in zip(r, c, strict=True)) <= min(2, len(c) // 3)
                ]
                if near:
                    wrong.append(f.key)
                    break
    return ok, wrong
