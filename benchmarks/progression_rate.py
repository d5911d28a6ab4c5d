"""conversation_progression rated relative to the call's length: stalls per agent turn, measured
the way the development/test split asks (docs/judges.md).

`stall-count-ordinal` 3 weighs raw counts of its findings (identical and repeated tool calls,
placeholder calls, repeated sentences). A long call with several requests has more of them
without being worse: a second lookup for a second request is a "repeated tool", a read-back
template said once per request is a "repeated sentence". The candidate rates the same
findings relative to the conversation: their number over the number of agent turns, one
sign-constrained ordinal weight and two cut points. The ablation separates its two changes
(pooling the four counts into one; dividing by the agent turns).

By default only the development half is read (the test half's items are dropped before
anything is rated): 5-fold CV inside it over fold seeds 0-7 (the folds of
`scripts/dev_cv_offline_judges.py`), conversations the candidate gets right and v3 wrong and
the reverse per fold seed, and per-dimension agreement (flagged yes/no against the label's
dimensions). `--refs` rates EVA's reference conversations (no labels; a finding on one is a
candidate false alarm) with each variant fitted on the dev half. `--test` reads the test half
once, as calibration does: the candidate and v3 fitted on the dev half, aggregate figures and
per-dimension agreement on the test half, and 5-fold CV (seed 0) over all visible labels.

    PYTHONPATH=src .venv/bin/python benchmarks/progression_rate.py [--dataset DIR] [--refs] [--test]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from label_halves import split_halves
from offline_reference_conversations import resolved_trace

from voxbench.cli.judges import agent_info
from voxbench.eval.calibration_dims import PROGRESSION_MODES
from voxbench.eval.calibration_items import CalibItem, context_of, trace_from_events
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import progression as v3
from voxbench.eval.offline._ordinal import OrdinalModel, assign_folds, fit_ordinal

ROOT = Path(__file__).resolve().parents[1]
EVA = ROOT.parent / "shared" / "eva-data"
DATASET = EVA / "docs" / "metrics" / "judge_validation_datasets"
Row = dict[str, Any]
Feats = Callable[[Row], dict[str, float]]

VARIANTS: dict[str, Feats] = {
    "v3 (shipped features)": lambda r: dict(r["f"]),
    "v3 per agent turn": lambda r: {k: v / r["turns"] for k, v in r["f"].items()},
    "pooled": lambda r: {"stalls": sum(r["f"].values())},
    "pooled per agent turn": lambda r: {"stalls_per_turn": sum(r["f"].values()) / r["turns"]},
}
CANDIDATE = "pooled per agent turn"
BASELINE = "v3 (shipped features)"


def agent_turns(ctx: ConversationContext) -> int:
    """Turns in which the agent spoke (at least one, so a rate is always defined)."""
    return max(len({e.get("turn_id") for e in ctx.conversation_trace if e.get("role") == "assistant"}), 1)


def row_of(key: str, ctx: ConversationContext, human: Any = None, modes: Any = ()) -> Row:
    found = v3.findings(ctx)
    dims = {v3.FEATURE_DIM[x["feature"]] for x in found}
    named = {PROGRESSION_MODES.get(m, m) for m in modes or ()}
    return {"id": key, "h": human, "f": v3.features(v3.counts(found)), "turns": agent_turns(ctx),
            "dims": dims, "modes": named}  # fmt: skip


def fit(rows: list[Row], feats: Feats) -> OrdinalModel:
    x = [feats(r) for r in rows]
    names = list(x[0])
    return fit_ordinal(x, [r["h"] for r in rows], names, l2=0.01, iters=6000, lr=0.2, penalising=names)


def cv(rows: list[Row], feats: Feats, seed: int, folds: int = 5) -> dict[str, int]:
    """Held-out rating of each row, the model refitted without its fold."""
    fold = assign_folds([r["id"] for r in rows], folds, seed)
    pred: dict[str, int] = {}
    for k in range(folds):
        m = fit([r for r in rows if fold[r["id"]] != k], feats)
        pred |= {r["id"]: m.rate(feats(r)) for r in rows if fold[r["id"]] == k}
    return pred


def agree(rows: list[Row], pred: dict[str, int]) -> dict[str, Any]:
    return agreement([(r["h"], pred[r["id"]]) for r in rows], [1, 2, 3], ordinal=True)


def fmt_agreement(a: dict[str, Any]) -> str:
    return (
        f"acc {a['accuracy']:.3f} κ {a['cohen_kappa']:.3f} qwk {a.get('weighted_kappa_quadratic') or 0:.3f}"
    )


def confusion_of(rows: list[Row], pred: dict[str, int]) -> str:
    c = Counter((int(r["h"]), pred[r["id"]]) for r in rows)
    return ", ".join(f"{h}->{j}: {c[h, j]}" for h in (1, 2, 3) for j in (1, 2, 3) if c[h, j])


def dimensions(rows: list[Row], pred: dict[str, int]) -> None:
    """Each dimension flagged (a finding of it and the rating below 3) against the label's."""
    for d in v3.DIMS:
        pairs = [(d in r["modes"], d in r["dims"] and pred[r["id"]] < 3) for r in rows]
        a = agreement(pairs, [True, False])
        n = [sum(h for h, _ in pairs), sum(j for _, j in pairs), sum(h and j for h, j in pairs)]
        print(
            f"    {d:24s} acc {a['accuracy']:.3f} κ {a['cohen_kappa']:.2f} (person {n[0]}, method {n[1]}, both {n[2]})"
        )


def dev_report(dev: list[Row]) -> None:
    print(f"dev half: {len(dev)} conversations")
    for name, feats in VARIANTS.items():
        accs = [agree(dev, cv(dev, feats, s)) for s in range(8)]
        m = fit(dev, feats)
        ins = agree(dev, {r["id"]: m.rate(feats(r)) for r in dev})
        mean = sum(a["accuracy"] for a in accs) / 8
        print(f"  {name:22s} dev 5-fold CV (seeds 0-7) acc {mean:.3f} [{min(a['accuracy'] for a in accs):.3f}-"
              f"{max(a['accuracy'] for a in accs):.3f}] κ {sum(a['cohen_kappa'] for a in accs) / 8:.3f}; "
              f"fitted on dev {fmt_agreement(ins)}; weights {m.weights} cuts {m.cuts}")  # fmt: skip
    for s in range(8):
        a, b = cv(dev, VARIANTS[BASELINE], s), cv(dev, VARIANTS[CANDIDATE], s)
        win = sum(b[r["id"]] == r["h"] != a[r["id"]] for r in dev)
        loss = sum(a[r["id"]] == r["h"] != b[r["id"]] for r in dev)
        print(f"  fold seed {s}: candidate right and v3 wrong {win}, the reverse {loss}")
    for name in (BASELINE, CANDIDATE):
        print(f"  per dimension, {name} (dev CV, fold seed 0):")
        dimensions(dev, cv(dev, VARIANTS[name], 0))


def refs_report(
    dev: list[Row],
    eva: Path,
    variants: dict[str, Feats] | None = None,
    rows: Callable[[str, ConversationContext], Row] | None = None,
) -> None:
    """EVA's reference conversations rated 3 / 2 / 1 by each variant fitted on the dev half
    (``variants`` and the ``rows`` reader: this bench's, or another progression bench's)."""
    row = rows or row_of
    models = {name: (feats, fit(dev, feats)) for name, feats in (variants or VARIANTS).items()}
    for domain in ("airline", "itsm", "medical_hr"):
        agent = agent_info(eva / "configs" / "agents" / f"{domain}_agent.yaml")
        records = json.loads((eva / "data" / f"{domain}_dataset.json").read_text(encoding="utf-8"))
        rated = {name: Counter[int]() for name in models}
        for rec in records:
            ctx = context_of(
                str(rec["id"]), trace_from_events(resolved_trace(rec)), agent, rec.get("current_date_time")
            )
            r = row(str(rec["id"]), ctx)
            for name, (feats, m) in models.items():
                rated[name][m.rate(feats(r))] += 1
        shown = "; ".join(f"{n} {c[3]}/{c[2]}/{c[1]}" for n, c in rated.items())
        print(f"  {domain} ({len(records)} references) rated 3/2/1: {shown}")


def test_report(dev: list[Row], test: list[Row]) -> None:
    print(f"test half: {len(test)} conversations (read once)")
    for name in (BASELINE, CANDIDATE):
        feats = VARIANTS[name]
        m = fit(dev, feats)
        pred = {r["id"]: m.rate(feats(r)) for r in test}
        print(f"  {name}: fitted on dev, test half {fmt_agreement(agree(test, pred))}")
        print(f"    confusion (person, method): {confusion_of(test, pred)}")
        dimensions(test, pred)
        every = dev + test
        print(
            f"  {name}: 5-fold CV over all visible labels (seed 0) {fmt_agreement(agree(every, cv(every, feats, 0)))}"
        )


def _rows(items: list[CalibItem]) -> list[Row]:
    return [row_of(str(it.item_id), it.ctx, it.human, it.extra.get("failure_modes")) for it in items]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--eva", type=Path, default=EVA)
    ap.add_argument("--refs", action="store_true", help="rate EVA's reference conversations")
    ap.add_argument("--test", action="store_true", help="read the test half once")
    args = ap.parse_args()
    halves = split_halves(args.dataset, "conversation_progression")
    dev = _rows(halves.dev)
    dev_report(dev)
    if args.refs:
        refs_report(dev, args.eva)
    if args.test:
        test_report(dev, _rows(halves.test))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
