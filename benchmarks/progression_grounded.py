"""conversation_progression from tool-call findings grounded in the record, measured the way
the development/test split asks (docs/judges.md). A measured candidate (issue 30).

`stall-count-ordinal` 3 counts every second call of a tool ("repeated_tools") and every
identical call as a stall. EVA's progression prompt says otherwise for two of those classes:
"Retrying a tool call after a tool error with corrected parameters" and "Calling the same tool
with different parameters" are not flags. What it does flag are calls "with the same
parameters after a prior successful response" and calls "made without required information,
causing a predictable error". The candidate counts those, read from the record's tool calls
and responses:

* `redundant_calls`: a call identical to an earlier one whose response succeeded (an identical
  retry of a failed call is not counted);
* `premature_calls`: a call with empty or placeholder parameters (v3's rule), or a call that
  failed whose identifier no caller statement or earlier result held (the faithfulness rules'
  `fabricated_params`: "JFKLAX1" for a confirmation number nobody gave);
* `repeated_writes`: a redundant call that is a write (an action done twice);
* `repeated_sentences`: v3's repeated statements and questions.

Each variant is the sign-constrained ordinal model of `_ordinal` on its features. By default
only the development half is read: 5-fold CV inside it over fold seeds 0-7 (the folds of
`scripts/dev_cv_offline_judges.py`), and the rating fitted on the whole dev half. `--test`
reads the test half once: each listed variant fitted on the dev half, aggregate figures on
the test half.

Measured (issue 30) and not shipped: `grounded` dev CV 0.680 (fold seeds 0-7, 0.588-0.706) against
v3's 0.574, but test half (read once) 0.656 / κ 0.463 against v3's 0.719 / κ 0.557: five
conversations people rated 2 rated 3 (v3: three), the second calls of a tool with other
parameters that v3 counts and EVA's prompt exempts.

    PYTHONPATH=src .venv/bin/python benchmarks/progression_grounded.py [--test VARIANT]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from label_halves import split_halves
from progression_dims import RESTATE_CUE
from progression_rate import agree, confusion_of, cv, fit, fmt_agreement

from voxbench.eval.calibration_items import CalibItem
from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline import progression as v3
from voxbench.eval.offline._faith_rules import fabricated_params
from voxbench.eval.offline._trace import read_conversation, response_failed

ROOT = Path(__file__).resolve().parents[1]
DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"
Row = dict[str, Any]


def grounded_counts(ctx: ConversationContext) -> dict[str, float]:
    conv = read_conversation(ctx)
    categorical = conv.enums
    ungrounded = {(f.turn, f.claim.split("(")[0]) for f in fabricated_params(conv)}
    done: set[str] = set()
    c = dict.fromkeys(("redundant_calls", "premature_calls", "repeated_writes"), 0.0)
    for k, s in enumerate(conv.steps):
        if s.kind != "tool_call":
            continue
        resp = next((r for r in conv.steps[k + 1 :] if r.kind == "tool_response" and r.tool == s.tool), None)
        failed = resp is not None and response_failed(resp.response)
        key = s.tool + json.dumps(s.params, sort_keys=True, default=str)
        if key in done:
            c["redundant_calls"] += 1
            c["repeated_writes"] += conv.tool_kind(s.tool) == "write"
        holes = [n for n, v in s.params.items() if isinstance(v, str) and v3.PLACEHOLDER.match(v.strip())]
        placeholder = not s.params or any((s.tool, n) not in categorical for n in holes)
        if placeholder or (failed and (s.turn, s.tool) in ungrounded):
            c["premature_calls"] += 1
        if resp is not None and not failed:
            done.add(key)
    return c


VARIANTS: dict[str, tuple[str, ...]] = {
    "v3 (shipped features)": v3.FEATURES,
    "grounded": ("redundant_calls", "premature_calls", "repeated_sentences"),
    "grounded + writes": ("redundant_calls", "premature_calls", "repeated_writes", "repeated_sentences"),
    "grounded pooled calls": ("unnecessary_calls", "repeated_sentences"),
    "grounded pooled calls + writes": ("unnecessary_calls", "repeated_writes", "repeated_sentences"),
    "grounded, recap exempt": ("redundant_calls", "premature_calls", "sentences_before_recap"),
    "grounded, recap exempt + cues": ("redundant_calls", "premature_calls", "restated"),
    "grounded + repeated_tools": (
        "redundant_calls",
        "premature_calls",
        "repeated_tools",
        "repeated_sentences",
    ),
}


def before_recap(ctx: ConversationContext) -> int:
    """Repeated sentences outside the closing turn (EVA: the final recap is not redundant)."""
    said = [e for e in ctx.conversation_trace if e.get("role") == "assistant"]
    last = said[-1].get("turn_id") if said else None
    trace = [
        e for e in ctx.conversation_trace if not (e.get("role") == "assistant" and e.get("turn_id") == last)
    ]
    return len(v3._speech_findings(trace))


def restate_cues(ctx: ConversationContext) -> int:
    """Agent sentences announcing a repetition ("just to repeat", "as I mentioned")."""
    said = " ".join(
        strip_tags(str(e.get("content", ""))) for e in ctx.conversation_trace if e.get("role") == "assistant"
    )
    return len(RESTATE_CUE.findall(said))


def row_of(it: CalibItem) -> Row:
    f = v3.features(v3.counts(v3.findings(it.ctx))) | grounded_counts(it.ctx)
    f["sentences_before_recap"] = float(before_recap(it.ctx))
    f["restated"] = f["sentences_before_recap"] + restate_cues(it.ctx)
    f["unnecessary_calls"] = f["redundant_calls"] + f["premature_calls"]
    return {"id": str(it.item_id), "h": it.human, "f": f}


def feats_of(names: tuple[str, ...]) -> Any:
    return lambda r: {n: r["f"][n] for n in names}


def dev_report(dev: list[Row]) -> None:
    print(f"dev half: {len(dev)} conversations")
    for name, names in VARIANTS.items():
        feats = feats_of(names)
        accs = [agree(dev, cv(dev, feats, s)) for s in range(8)]
        m = fit(dev, feats)
        ins = agree(dev, {r["id"]: m.rate(feats(r)) for r in dev})
        mean = sum(a["accuracy"] for a in accs) / 8
        print(f"  {name:32s} dev CV (seeds 0-7) acc {mean:.3f} [{min(a['accuracy'] for a in accs):.3f}-"
              f"{max(a['accuracy'] for a in accs):.3f}] κ {sum(a['cohen_kappa'] for a in accs) / 8:.3f}; "
              f"fitted on dev {fmt_agreement(ins)}")  # fmt: skip


def test_report(dev: list[Row], test: list[Row], names: list[str]) -> None:
    print(f"test half: {len(test)} conversations (read once)")
    for name in names:
        feats = feats_of(VARIANTS[name])
        m = fit(dev, feats)
        pred = {r["id"]: m.rate(feats(r)) for r in test}
        print(
            f"  {name}: fitted on dev, test half {fmt_agreement(agree(test, pred))}; {confusion_of(test, pred)}"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--test", action="append", choices=list(VARIANTS), help="read the test half once")
    ap.add_argument("--show", action="store_true", help="each dev row's counts")
    args = ap.parse_args()
    halves = split_halves(args.dataset, "conversation_progression")
    dev = [row_of(it) for it in halves.dev]
    if args.show:
        for r in dev:
            print(r["id"], r["h"], {k: int(v) for k, v in r["f"].items() if v})
    dev_report(dev)
    if args.test:
        test_report(dev, [row_of(it) for it in halves.test], args.test)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
