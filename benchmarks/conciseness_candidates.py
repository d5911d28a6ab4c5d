"""Candidate features for the offline conciseness model, measured the way the split asks.

Each candidate is a count stated from EVA's definition of conciseness (lists of more than
three items, several questions in one turn, filler, spelled codes, echoing the caller, ...)
added to the shipped `listening-load-logit` features. By default only the development half of
the split is read: 5-fold cross-validation by conversation, averaged over fold seeds 0-4, one
line per candidate. `--test NAME[,NAME]` measures one candidate the way calibration does: fitted
on the dev half and rated on the test half (aggregate figures only), and 5-fold CV over all
visible labels. docs/judges.md lists what was tried and what was kept.

    PYTHONPATH=src .venv/bin/python benchmarks/conciseness_candidates.py [--dataset DIR]
        [--l2 0.01] [--test long_list,list_items]
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
from label_halves import split_halves

from voxbench.eval.calibration_items import CalibItem
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import strip_tags
from voxbench.eval.offline import conciseness as C
from voxbench.eval.offline._ordinal import assign_folds, fit_two_step

ROOT = Path(__file__).resolve().parents[1]
DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"

NATO = frozenset(
    re.findall(
        r"\w+",
        "alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike november "
        "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu",
    )
)
FILLER = re.compile(
    r"\b(i understand|i'm sorry|i am sorry|sorry to hear|i apologi[sz]e|thanks? (?:you )?for your patience|"
    r"great question|happy to help|i know that's frustrating|no problem|absolutely|certainly|of course)\b",
    re.I,
)
ASKS_OPTIONS = re.compile(
    r"\b(options|what flights|which flights|alternatives|choices|anything (?:earlier|later))\b", re.I
)
WIDER_EXPLANATION = re.compile(
    r"\b(depends on|heads-up|heads up|can sometimes|which means|unless|policy)\b", re.I
)
CLOCK = re.compile(rf"\b(?:\d{{1,2}}(?::\d\d)?|(?:{C._NW})(?:[- ](?:{C._NW}))*)\s*[ap]\.?\s?m\b\.?", re.I)
_ORD = r"one|two|three|four|five|six|seven|eight|nine|\d"
ENUMERATION = re.compile(rf"\boption ({_ORD})\b|(?:^|[:;.]\s*|,\s*(?:and\s+|or\s+)?)({_ORD}),\s", re.I)
STOP = frozenset(
    re.findall(
        r"\w+",
        "the a an and or to of in on for at is it i you your my me we be that this with from are was so by as",
    )
)


def list_items(text: str) -> int:
    """Distinct enumeration markers, clock times in pairs (leaves-arrives), ';' entries: the most."""
    markers = {(m.group(1) or m.group(2)).lower() for m in ENUMERATION.finditer(text)}
    entries = text.count(";") + 1 if ";" in text else 0
    return max(len(markers), len(CLOCK.findall(text)) // 2, entries)


SPELLED_RUN = re.compile(
    r"\b(?:[A-Za-z]|zero|oh|one|two|three|four|five|six|seven|eight|nine|dash)"
    r"(?:[ -]+(?:[A-Za-z]|zero|oh|one|two|three|four|five|six|seven|eight|nine|dash)\b){3,}"
)


AMOUNT = re.compile(r"\$\d|\bdollars?\b|\bpercent\b", re.I)


def code_numbers(text: str) -> int:
    """Numbers inside a code read out character by character ("S W seven seven zero"): EVA's
    exception (essential identifiers are never penalised), counted apart so a model can price them."""
    return sum(len(NUMBER_IN.findall(m.group(0))) for m in SPELLED_RUN.finditer(text))


NUMBER_IN = re.compile(r"\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d)\b", re.I)


def inner_repeats(sents: list[str]) -> int:
    """Sentences of a turn sharing most of their content words with an earlier one of the same
    turn (EVA: "within turns, is repetition avoided?")."""
    seen: list[set[str]] = []
    n = 0
    for s in sents:
        w = {x for x in _words(s) if x not in STOP}
        if len(w) >= 3 and any(len(w & o) / len(w) >= 0.6 for o in seen):
            n += 1
        seen.append(w)
    return n


def _words(s: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", s.lower())


def candidates(agent: str, caller: str, prev_agent: str, pos: int, n: int) -> dict[str, float]:
    """Every candidate count for one agent turn (`pos` of `n` agent turns)."""
    a, c = strip_tags(agent), strip_tags(caller)
    aw = [w for w in _words(a) if w not in STOP]
    cw = {w for w in _words(c) if w not in STOP}
    sents = [s for s in C.SENTENCE_END.split(a.strip()) if s.strip()]
    items = list_items(a)
    return {
        "list_items": float(items),
        "long_list": float(items > 3),
        "questions": float(a.count("?")),
        "filler": float(len(FILLER.findall(a))),
        "spelled_words": sum(w in NATO for w in _words(a)) / 5,
        "echo": sum(w in cw for w in aw) / max(1, len(aw)),
        "caller_asks_options": float(bool(ASKS_OPTIONS.search(c))),
        "wider_explanations": float(len(C.EXPLANATION.findall(a)) + len(WIDER_EXPLANATION.findall(a))),
        "first_turn": float(pos == 0),
        "last_turn": float(pos == n - 1),
        "prev_agent_words": math.log(len(prev_agent.split()) + 1),
        "longest_sentence": max((len(s.split()) for s in sents), default=0) / 20,
        "sentences_over_4": float(max(0, len(sents) - 4)),
        "clock_times": float(len(CLOCK.findall(a))),
        "amounts": float(len(AMOUNT.findall(a))),
        "flights_named": float(len(re.findall(r"\bflights?\b", a, re.I))),
        "inner_repeats": float(inner_repeats(sents)),
        "code_numbers_per_5": code_numbers(a) / 5,
    }


Row = tuple[dict[str, float], int, str]


def rows_of(items: list[CalibItem]) -> list[Row]:
    """(features, human rating, conversation id) per human-rated agent turn."""
    out: list[Row] = []
    for it in items:
        turns = C.agent_turns(it.ctx)
        prev = ""
        for i, t in enumerate(sorted(turns)):
            agent, caller = turns[t]
            if it.human.get(t) in (1, 2, 3):
                f = C.turn_features(agent, caller) | candidates(agent, caller, prev, i, len(turns))
                out.append((f, int(it.human[t]), it.item_id))
            prev = agent
    return out


def cv_ratings(rows: list[Row], feats: list[str], seed: int, l2: float, k: int = 5) -> list[int]:
    fold = assign_folds([key for _, _, key in rows], k, seed)
    pred = [0] * len(rows)
    for f in range(k):
        train = [r for r in rows if fold[r[2]] != f]
        m = fit_two_step([r[0] for r in train], [r[1] for r in train], feats, l2=l2)
        for i, r in enumerate(rows):
            if fold[r[2]] == f:
                pred[i] = m.rate(r[0])
    return pred


def figures(pairs: list[tuple[int, int]]) -> str:
    a = agreement(pairs, (1, 2, 3), ordinal=True)
    return f"acc {a['accuracy']:.3f} κ {a['cohen_kappa']:.3f} qwk {a['weighted_kappa_quadratic']:.3f} (n {a['n']})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--only", default="", help="comma-separated candidates to measure on dev (default all)")
    ap.add_argument("--test", default="", help="a candidate (comma-separated extra features) to read on test")
    args = ap.parse_args()
    halves = split_halves(args.dataset, "conciseness", with_agent=False)
    base = list(C.FEATURES)
    dev = rows_of(halves.dev)
    dev_cv: Callable[[list[str]], float] = lambda feats: float(  # noqa: E731
        np.mean([np.mean([p == r[1] for p, r in zip(cv_ratings(dev, feats, s, args.l2), dev, strict=True)])
                 for s in range(5)])
    )  # fmt: skip
    if not args.test:
        print(f"dev half, 5-fold CV (seeds 0-4, mean), L2 {args.l2}: shipped features {dev_cv(base):.4f}")
        for name in args.only.split(",") if args.only else candidates("", "", "", 0, 1):
            print(f"  + {name:22} {dev_cv([*base, name]):.4f}")
        print(f"  + list_items, long_list  {dev_cv([*base, 'list_items', 'long_list']):.4f}")
        return 0
    feats = base + [x for x in args.test.split(",") if x]
    model = fit_two_step([r[0] for r in dev], [r[1] for r in dev], feats, l2=args.l2)
    test = rows_of(halves.test)
    print(f"{feats}\n  test half (fitted on dev): {figures([(r[1], model.rate(r[0])) for r in test])}")
    everything = rows_of(halves.every)
    pred = cv_ratings(everything, feats, 0, args.l2)
    print(
        f"  5-fold CV on all labels (seed 0): {figures([(r[1], p) for r, p in zip(everything, pred, strict=True)])}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
