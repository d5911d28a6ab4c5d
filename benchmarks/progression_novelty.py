"""conversation_progression with a read call judged by what its result adds: a measured candidate
(issue 30), developed on the development half only (docs/judges.md, "The development/test split").

EVA's progression prompt flags a tool call "when the needed information was already returned by
a previous tool response" or made "to verify something a prior tool response already
confirmed", and exempts "calling the same tool with different parameters" and sequential calls
"that each return new, necessary information". `stall-count-ordinal` 3 reads neither: it counts
every second call of a tool (`repeated_tools`) whatever it returned. The candidate measures it
from the record: a successful read call, not identical to an earlier call, whose result holds
few values no earlier successful result held (fewer than `NOVEL` of its (field, value) leaves
new; results of fewer than `MIN_LEAVES` values are a check's verdict and not judged) is a
`stale_read`. With v3's identical and placeholder calls it makes one count of unnecessary
calls, EVA's first dimension; fitted, the one-feature ordinal model is EVA's rubric for a
dimension (none: 3, one: 2, several: 1).

Variants are the sign-constrained ordinal model of `_ordinal` on their features, next to
1-feature baselines. By default only the dev half is read: 5-fold CV over fold seeds 0-7 (mean
and range) and leave-one-out CV, and the fit on the whole dev half. `--refs` rates EVA's
reference conversations (no labels, correct agents: a rating below 3 is a candidate false
alarm) with each variant fitted on the dev half. `--test VARIANT` reads the test half once: the
variant and v3 fitted on the dev half, aggregate figures on the test half.

Measured (issue 30, 2026-12-06) and not shipped: `unnecessary calls (1 feature)` dev 5-fold CV
0.691 [0.559-0.735] against v3's 0.574 [0.500-0.647], leave-one-out 0.706 / κ 0.487 against
0.618 / κ 0.337; references rated 3: airline 39 / 40, ITSM 56 / 64, medical HR 60 / 66 (v3 39,
42, 43); but the test half (read once) 0.625 / κ 0.429 / qwk 0.538 against v3's 0.719 / 0.557 /
0.738: five conversations people rated 2 rated 3 (v3: three), three rated 2 rated 1 (v3: two).

    PYTHONPATH=src .venv/bin/python benchmarks/progression_novelty.py [--refs] [--test VARIANT]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from label_halves import split_halves
from progression_rate import agree, confusion_of, fit, fmt_agreement
from progression_rate import refs_report as rate_refs

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import progression as v3
from voxbench.eval.offline._ordinal import assign_folds
from voxbench.eval.offline._trace import infer_tool_kind, response_failed, tool_kinds

ROOT = Path(__file__).resolve().parents[1]
EVA = ROOT.parent / "shared" / "eva-data"
DATASET = EVA / "docs" / "metrics" / "judge_validation_datasets"
NOVEL = 1 / 3
"""A read whose result is less than a third new values repeats what the agent already had."""
MIN_LEAVES = 8
"""A result of fewer values is a check's verdict ("authenticated": true, an empty desk list), an
answer to the question asked rather than data the agent could have read elsewhere: not judged."""
Row = dict[str, Any]
Feats = Callable[[Row], dict[str, float]]
SKIP_KEYS = frozenset({"status", "success", "message"})


def as_obj(raw: Any) -> Any:
    """A tool result as data (a JSON string parsed; the judge-validation records hold both)."""
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


def leaves(o: Any, key: str = "") -> set[tuple[str, str]]:
    """The (field, value) pairs of a result, nested lists and objects walked; empty values skipped."""
    out: set[tuple[str, str]] = set()
    if isinstance(o, dict):
        for k, v in o.items():
            if k not in SKIP_KEYS:
                out |= leaves(v, str(k))
    elif isinstance(o, list):
        for v in o:
            out |= leaves(v, key)
    elif o is not None and str(o).strip():
        out.add((key, str(o).strip().lower()))
    return out


def stale_reads(ctx: ConversationContext, novel: float = NOVEL, floor: int = MIN_LEAVES) -> float:
    """Successful read calls, not identical to an earlier call, whose result is mostly values an
    earlier successful result already held (fewer than `novel` of its leaves new)."""
    kinds = tool_kinds(ctx.agent_tools or [])
    trace = ctx.conversation_trace
    seen: set[tuple[str, str]] = set()
    called: set[str] = set()
    n = 0.0
    for k, e in enumerate(trace):
        if e.get("type") != "tool_call":
            continue
        name = str(e.get("tool_name"))
        key = name + json.dumps(v3.params_of(e.get("parameters")), sort_keys=True, default=str)
        resp = next(
            (r for r in trace[k + 1 :] if r.get("type") == "tool_response" and r.get("tool_name") == name),
            None,
        )
        body = as_obj(resp.get("tool_response", resp.get("response"))) if resp else None
        if isinstance(body, dict) and not response_failed(body):
            new = leaves(body)
            read = (kinds.get(name) or infer_tool_kind(name)) == "read"
            if read and key not in called and len(new) >= floor and len(new - seen) / len(new) < novel:
                n += 1
            seen |= new
        called.add(key)
    return n


def row_of(key: str, ctx: ConversationContext, human: Any = None) -> Row:
    f = v3.features(v3.counts(v3.findings(ctx)))
    f["stale_reads"] = stale_reads(ctx)
    f["tool_stalls_v3"] = f["identical_calls"] + f["placeholder_calls"]
    f["unnecessary_calls"] = f["tool_stalls_v3"] + f["stale_reads"]
    return {"id": key, "h": human, "f": f}


VARIANTS: dict[str, tuple[str, ...]] = {
    "v3 (shipped features)": v3.FEATURES,
    "v3 tool stalls only (1 feature)": ("tool_stalls_v3",),
    "identical calls only (1 feature)": ("identical_calls",),
    "v3 + stale reads": (*v3.FEATURES, "stale_reads"),
    "v3 - repeated tools + stale reads": (
        "identical_calls",
        "stale_reads",
        "placeholder_calls",
        "repeated_sentences",
    ),
    "unnecessary calls + sentences (2)": ("unnecessary_calls", "repeated_sentences"),
    "unnecessary calls (1 feature)": ("unnecessary_calls",),
}


def feats_of(names: tuple[str, ...]) -> Feats:
    return lambda r: {n: r["f"][n] for n in names}


def cv(rows: list[Row], feats: Feats, seed: int | None, folds: int = 5) -> dict[str, int]:
    """Held-out ratings: 5-fold by `seed`, or leave-one-out when `seed` is None."""
    fold = (
        {r["id"]: i for i, r in enumerate(rows)}
        if seed is None
        else assign_folds([r["id"] for r in rows], folds, seed)
    )
    pred: dict[str, int] = {}
    for k in sorted(set(fold.values())):
        m = fit([r for r in rows if fold[r["id"]] != k], feats)
        pred |= {r["id"]: m.rate(feats(r)) for r in rows if fold[r["id"]] == k}
    return pred


def dev_report(dev: list[Row]) -> None:
    print(
        f"dev half: {len(dev)} conversations (held-out accuracy: 5-fold mean [range] over fold seeds 0-7, leave-one-out)"
    )
    for name, names in VARIANTS.items():
        feats = feats_of(names)
        accs = [agree(dev, cv(dev, feats, s))["accuracy"] for s in range(8)]
        loo = agree(dev, cv(dev, feats, None))
        ins = agree(dev, {r["id"]: fit(dev, feats).rate(feats(r)) for r in dev})
        print(
            f"  {name:34s} 5-fold (seeds 0-7) {sum(accs) / 8:.3f} [{min(accs):.3f}-{max(accs):.3f}]"
            f"  LOO {fmt_agreement(loo)}  fitted on dev {ins['accuracy']:.3f}"
        )


def refs_report(dev: list[Row], names: list[str], eva: Path = EVA) -> None:
    """EVA's reference conversations (correct agents, no labels) rated 3 / 2 / 1 by each variant
    fitted on the dev half: a rating below 3 is a candidate false alarm."""
    rate_refs(dev, eva, {name: feats_of(VARIANTS[name]) for name in names}, rows=row_of)


def test_report(dev: list[Row], test: list[Row], name: str) -> None:
    for label in ("v3 (shipped features)", name):
        feats = feats_of(VARIANTS[label])
        m = fit(dev, feats)
        pred = {r["id"]: m.rate(feats(r)) for r in test}
        print(f"  test half ({len(test)}), {label}, fitted on dev: {fmt_agreement(agree(test, pred))}")
        print(f"    confusion (person->method): {confusion_of(test, pred)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--refs", action="store_true")
    ap.add_argument("--test", choices=list(VARIANTS), help="read the test half once for this variant")
    args = ap.parse_args()
    halves = split_halves(args.dataset, "conversation_progression")
    t0 = time.process_time()
    dev = [row_of(str(it.item_id), it.ctx, it.human) for it in halves.dev]
    print(f"features: {1000 * (time.process_time() - t0) / len(dev):.1f} ms CPU per conversation")
    dev_report(dev)
    if args.refs:
        refs_report(dev, list(VARIANTS))
    if args.test:
        test_report(dev, [row_of(str(it.item_id), it.ctx, it.human) for it in halves.test], args.test)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
