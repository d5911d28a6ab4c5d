"""Asked to repeat a number the agent half heard ('I got 4 8 2 ... could you repeat the number?'),
the caller means the fact holding those digits, whatever the request's words named."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.spoken import compact, mentions, runs


def prefer_heard_digits(text: str, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """Asked to repeat a number the agent half heard, the caller means the fact holding those digits."""
    heard_runs = [r for r in runs(text) if sum(c.isdigit() for c in r) >= 4]
    if not heard_runs:
        return asked
    out: dict[str, str] = {}
    for k, rule in asked.items():
        f = book.get(k)
        if f is None or any(r in compact(v) for v in f.values() for r in heard_runs):
            out[k] = rule
            continue
        same = [
            o
            for o in book
            if set(o.heads) & set(f.heads) | (set(o.words) & set(f.words))
            and any(r in compact(v) for v in o.values() for r in heard_runs)
            and not any(mentions(text, v) for v in o.values())
        ]  # fmt: skip  (read back whole: not half heard)
        if len(same) == 1:
            out[same[0].key] = f"heard_digits:{k}"
        else:
            out[k] = rule
    return out
