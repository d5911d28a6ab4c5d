"""The fixed development/test split of EVA's visible human labels.

Rules written by reading labels are a fitted model, and so is a method whose features were
chosen by looking at them: their agreement on the labels they were written on overstates what
a user gets on conversations of their own (EVA holds part of its labels back). So each visible
judge-validation set is split once, in advance, into a development half (methods are written,
tuned and fitted there) and a test half (only measured; never read to write or tune a rule).
The split is data (`offline/label_split.json`, written by `scripts/split_offline_labels.py`),
not recomputed at calibration time, so it cannot drift with the code.

How the halves are drawn: by conversation, seeded, stratified. Items that open with the same
caller words (the same scenario replayed) form one group and stay in one half, so a rule
written on one conversation is not measured on its near-copy. Every set is airline (EVA's
visible labels have one domain), so the strata are the domain's label classes: a
conversation's rating (its worst turn's for conciseness; for key entities whether any entity
was mistranscribed). Within a stratum the groups are ordered by a seeded hash of their key and
dealt to whichever half has fewer items so far.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from voxbench.eval.calibration_items import CalibItem

SPLIT_FILE = Path(__file__).with_name("offline") / "label_split.json"
SPLIT_SEED = 30
HALVES = ("dev", "test")


def _group_key(it: CalibItem) -> str:
    """The conversation's opening caller words, normalised: replays of a scenario share it."""
    turns = it.ctx.intended_user_turns or it.ctx.transcribed_user_turns
    first = next((str(turns[t]) for t in sorted(turns) if str(turns[t]).strip()), it.item_id)
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", first.lower()).split()[:12])


def _stratum(it: CalibItem) -> str:
    """The label class a conversation belongs to (the domain is the same for every item)."""
    h = it.human
    if isinstance(h, int):
        return str(h)
    if isinstance(h, dict) and h and all(isinstance(v, int) for v in h.values()):
        return str(min(h.values()))
    if isinstance(h, dict):
        return "any-wrong" if any(not e.get("correct") for v in h.values() for e in v) else "all-right"
    return "none"


def _rank(seed: int, stem: str, key: str) -> str:
    return hashlib.sha256(f"{seed}:{stem}:{key}".encode()).hexdigest()


def split_items(stem: str, items: list[CalibItem], seed: int = SPLIT_SEED) -> dict[str, list[str]]:
    """{"dev": [item ids], "test": [item ids]} for one validation set (see the module doc)."""
    groups: dict[str, list[CalibItem]] = defaultdict(list)
    for it in items:
        groups[_group_key(it)].append(it)
    strata: dict[str, list[str]] = defaultdict(list)
    for key, members in groups.items():
        strata[min(_stratum(it) for it in members)].append(key)
    halves: dict[str, list[str]] = {h: [] for h in HALVES}
    for s in sorted(strata):
        counts = dict.fromkeys(HALVES, 0)
        for key in sorted(strata[s], key=lambda k: _rank(seed, stem, k)):
            half = min(HALVES, key=lambda h: (counts[h], HALVES.index(h)))
            counts[half] += len(groups[key])
            halves[half].extend(it.item_id for it in groups[key])
    return {h: sorted(ids, key=lambda x: (len(x), x)) for h, ids in halves.items()}


def load_split(path: Path = SPLIT_FILE) -> dict[str, Any]:
    """The shipped split ({"seed", "sets": {stem: {"dev", "test", "sha256"}}}), or {} if absent."""
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def halves_of(
    stem: str, items: list[CalibItem], split: dict[str, Any], sha256: str | None
) -> dict[str, list[CalibItem]] | None:
    """The items of each half by the shipped split, or None when the split has no such set or
    was drawn on another file (`sha256` differs: other labels, e.g. EVA's held-back ones, whose
    ids mean other conversations)."""
    entry = (split.get("sets") or {}).get(stem)
    if not isinstance(entry, dict) or entry.get("sha256") != sha256:
        return None
    out: dict[str, list[CalibItem]] = {}
    for h in HALVES:
        ids = {str(x) for x in entry.get(h) or []}
        out[h] = [it for it in items if it.item_id in ids]
    return out
