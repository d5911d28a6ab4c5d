"""Whether a model fitted on EVA's reference conversations tells the goal caller when to hang up
better than its rules, cross-validated by scenario and leave-one-domain-out.

    python benchmarks/caller_end_model.py --data ../shared/eva-data [--half dev|test] [--k 5]

Every agent turn of every reference conversation of the half is one example. The goal caller
(rules only) answers the reference turns in order, as `voxbench caller check` runs it; after each
reply its own state gives the features (:func:`features`): what it heard (a completion, an
"anything else?", a refusal, a transfer offer, a question ...), the act its rules chose, its
requests and must-haves still open by its own tracking, turns without progress, refusal answers
left. The label: the reference caller ended the call at this turn (its first goodbye, else the
last agent turn: ``bench.reference.reference_end``). Turns after that end are not examples.

A logistic regression (numpy, L2) over those features is fitted on the training scenarios only and
gives each held-out turn p(end). Gates beside the rules are graded with the bench's own ending rule
(``reference_ending``: premature before the first acceptable turn, missed after the last, none
missed where the agent ended the reference call by a transfer):

* ``rules``: the caller as it is (first turn whose act ends the call);
* ``veto lo``: a rules' ending is kept only when p(end) >= lo;
* ``trigger hi``: the rules' ending, or p(end) >= hi with no request or must-have open;
* ``both``: the two together.

The caller's later replies are taken as they were in the ungated run (a vetoed goodbye is not
replayed), so the figures grade where the first ending falls, not the words after it. Printed:
premature / missed per gate and threshold for k-fold by scenario and for leave one domain out,
and the in-sample fit's weights. ``--half test`` prints the same aggregates for the test half,
the model fitted on dev (nothing per scenario is printed for either half).
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.reference import reference_ending, reference_turns
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig

HEARD = ("completed", "anything_else", "goodbye", "transfer", "transfer_offer", "denial", "question",
         "request", "options", "hold", "confirm_question", "courtesy", "statement", "readback",
         "troubleshoot", "open_question")  # fmt: skip
ACTS = ("end", "pushback", "acknowledge", "state_request", "answer", "confirm", "choose", "wait",
        "cannot_answer", "decline_transfer", "correct", "report")  # fmt: skip


@dataclass
class Turn:
    x: dict[str, float]
    rules_end: bool
    open_: bool  # a request or must-have still open by the caller's own tracking


@dataclass
class Conv:
    domain: str
    sid: str
    turns: list[Turn] = field(default_factory=list)
    first: int = 0
    last: int = 0
    by_agent: bool = False


def features(
    caller: GoalCaller, act: CallerAct, before: tuple[int, ...], prev: CallerAct | None
) -> dict[str, float]:
    """The turn's acts and the caller's goal state after its reply, as numbers."""
    s = caller.s
    x: dict[str, float] = {f"heard:{k}": float(k in act.heard) for k in HEARD}
    x |= {f"act:{k}": float(act.kind == k) for k in ACTS}
    pending = s.tracker.pending()
    x["rules_end"] = float(act.ends_call)
    x["open_requests"] = float(len(pending))
    x["none_open"] = float(not pending and not s.agenda.open_items() and not s.learn.partial)
    x["must_have_open"] = float(bool(s.agenda.open_items()))
    x["no_progress_turns"] = float(s.stalls.count)
    x["stuck"] = float(s.stuck)
    x["moved"] = float(s.progress() != before)
    x["refusals"] = float(len(s.refused))
    x["pushes_left"] = float(s.push.left())
    x["prev_pushback"] = float(prev is not None and prev.kind == "pushback")
    x["log_turn"] = math.log1p(s.turn)
    x["done_share"] = sum(s.tracker.done) / max(len(s.tracker.done), 1)
    return x


WORDS = 0
"""Hashed buckets of the agent turn's words added to the features (``--words N``; 0: none)."""


def word_features(text: str) -> dict[str, float]:
    x = {f"w:{i}": 0.0 for i in range(WORDS)}
    for w in re.findall(r"[a-z']+", text.lower()):
        x[f"w:{zlib.crc32(w.encode()) % WORDS}"] = 1.0
    return x


def run(domain: str, sc: object) -> Conv:
    caller = GoalCaller(sc, GoalCallerConfig(seed=0))  # type: ignore[arg-type]
    opening, turns = reference_turns(sc)  # type: ignore[arg-type]
    end = reference_ending(sc, turns)  # type: ignore[arg-type]
    conv = Conv(domain, sc.id, first=end.first, last=end.last, by_agent=end.by_agent)  # type: ignore[attr-defined]
    if opening is not None:
        caller.open()
    prev: CallerAct | None = None
    for agent, _ref in turns:
        before = caller.s.progress()
        act = caller.respond(agent)
        x = features(caller, act, before, prev) | (word_features(agent) if WORDS else {})
        conv.turns.append(Turn(x, act.ends_call, x["none_open"] == 0.0))
        prev = act
    return conv


def design(convs: list[Conv], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    rows, ys = [], []
    for c in convs:
        for i, t in enumerate(c.turns[: c.last + 1]):
            rows.append([t.x[n] for n in names])
            ys.append(float(i == c.last))
    return np.array(rows), np.array(ys)


class Logit:
    """L2 logistic regression by gradient descent, standardised features."""

    def __init__(self, names: list[str], l2: float = 1.0) -> None:
        self.names, self.l2 = names, l2

    def fit(self, convs: list[Conv]) -> Logit:
        X, y = design(convs, self.names)
        self.mu, self.sd = X.mean(0), X.std(0) + 1e-9
        Z = (X - self.mu) / self.sd
        w, b = np.zeros(Z.shape[1]), 0.0
        for _ in range(3000):
            p = 1 / (1 + np.exp(-(Z @ w + b)))
            g = p - y
            w -= 0.1 * (Z.T @ g / len(y) + self.l2 * w / len(y))
            b -= 0.1 * g.mean()
        self.w, self.b = w, b
        return self

    def p(self, t: Turn) -> float:
        z = (np.array([t.x[n] for n in self.names]) - self.mu) / self.sd
        return float(1 / (1 + np.exp(-(z @ self.w + self.b))))


def grade(c: Conv, ends: list[bool]) -> tuple[int, int]:
    """(premature, missed) of the first ending, by the bench's rule."""
    e = next((i for i, v in enumerate(ends) if v), None)
    if e is not None and e < c.first:
        return 1, 0
    if not c.by_agent and (e is None or e > c.last):
        return 0, 1
    return 0, 0


def gates(c: Conv, ps: list[float], lo: float, hi: float) -> dict[str, list[bool]]:
    t = c.turns
    return {
        "rules": [x.rules_end for x in t],
        "veto": [x.rules_end and p >= lo for x, p in zip(t, ps, strict=True)],
        "trigger": [x.rules_end or (p >= hi and not x.open_) for x, p in zip(t, ps, strict=True)],
        "both": [(x.rules_end and p >= lo) or (p >= hi and not x.open_) for x, p in zip(t, ps, strict=True)],
    }


LOS = (0.02, 0.05, 0.1, 0.2)
HIS = (0.3, 0.5, 0.7, 0.9)


def table(title: str, scored: list[tuple[Conv, list[float]]]) -> None:
    print(f"\n{title} ({len(scored)} scenarios)   premature / missed")
    base = [grade(c, gates(c, ps, 0, 1)["rules"]) for c, ps in scored]
    print(f"  rules                 {sum(p for p, _ in base):3} / {sum(m for _, m in base):3}")
    for lo in LOS:
        r = [grade(c, gates(c, ps, lo, 1)["veto"]) for c, ps in scored]
        print(f"  veto    lo={lo:<5}      {sum(p for p, _ in r):3} / {sum(m for _, m in r):3}")
    for hi in HIS:
        r = [grade(c, gates(c, ps, 0, hi)["trigger"]) for c, ps in scored]
        print(f"  trigger hi={hi:<5}      {sum(p for p, _ in r):3} / {sum(m for _, m in r):3}")
    for lo in LOS[:2]:
        for hi in HIS[1:3]:
            r = [grade(c, gates(c, ps, lo, hi)["both"]) for c, ps in scored]
            print(f"  both    lo={lo:<5} hi={hi:<4} {sum(p for p, _ in r):3} / {sum(m for _, m in r):3}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--words", type=int, default=0, help="hashed word buckets of the agent turn")
    args = ap.parse_args()
    global WORDS
    WORDS = args.words
    items = resolved_scenarios(args.data)
    dev = [run(d, sc) for d, sc in items if half(d, sc.id) == "dev"]
    names = sorted(dev[0].turns[0].x)
    if args.half == "test":
        model = Logit(names, args.l2).fit(dev)
        test = [run(d, sc) for d, sc in items if half(d, sc.id) == "test"]
        table("test, fitted on dev", [(c, [model.p(t) for t in c.turns]) for c in test])
        return
    order = sorted(dev, key=lambda c: (c.domain, c.sid))
    random.Random(0).shuffle(order)
    folds = [order[i :: args.k] for i in range(args.k)]
    kfold = []
    for f in folds:
        model = Logit(names, args.l2).fit([c for c in dev if c not in f])
        kfold += [(c, [model.p(t) for t in c.turns]) for c in f]
    table(f"dev, {args.k}-fold by scenario", kfold)
    lodo = []
    for d in sorted({c.domain for c in dev}):
        model = Logit(names, args.l2).fit([c for c in dev if c.domain != d])
        lodo += [(c, [model.p(t) for t in c.turns]) for c in dev if c.domain == d]
    table("dev, leave one domain out", lodo)
    model = Logit(names, args.l2).fit(dev)
    table("dev, in-sample", [(c, [model.p(t) for t in c.turns]) for c in dev])
    print("\nin-sample weights (standardised):")
    for n, w in sorted(zip(names, model.w, strict=True), key=lambda nw: -abs(nw[1])):
        print(f"  {n:24} {w:+.2f}")


if __name__ == "__main__":
    main()
