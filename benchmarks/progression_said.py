"""conversation_progression with what the agent *said again* read from the record: a measured
candidate (issue 30), developed on the development half only (docs/judges.md, "The
development/test split").

`stall-count-ordinal` 3 finds a redundant statement only when a sentence repeats an earlier one
almost word for word (rapidfuzz ratio >= 0.8), and information loss only as a repeated question.
EVA's progression prompt defines both by content: redundant statements are "restating details,
times, amounts, or status information the assistant already told the user in an earlier turn
(outside of a final recap) when the user did not ask for it"; information loss is the agent
forgetting what was established, which the caller's own words show ("I just told you"). The
candidate adds three findings, each grounded in the record, to v3's repeated sentences (one
pooled count, so no new fitted constant; v3's tool-call findings are unchanged):

* `retold_values` (redundant_statements): an agent turn saying again two or more values
  (clock times, dates, amounts of 10 or more, codes of 3+ characters; `voxbench.spoken` keys)
  it had already said in an earlier turn, where nothing asked for them: not the last agent
  turn (the final recap), not after a successful write or a tool result holding the value (a
  new state is news), not after a caller turn that asks or asks to confirm, not a read-back
  or a proposal (a confirmation cue in the turn, or a write right after the caller's answer:
  EVA's "confirming back details once for verification");
* `restatements` (redundant_statements): the agent announcing that it says something again
  ("just to repeat", "as I mentioned");
* `caller_already_said` (information_loss): the caller saying it already gave what is asked
  ("I just told you", "like I said").

Variants are the sign-constrained ordinal model of `_ordinal` on their features. By default
only the dev half is read: 5-fold CV over fold seeds 0-7 (mean and range), leave-one-out, and
the fit on the whole dev half. `--refs` rates EVA's reference conversations (correct agents,
no labels: a rating below 3 is a candidate false alarm) with each variant fitted on the dev
half. `--test` reads the test half once: the candidate and v3 fitted on the dev half,
aggregate figures on the test half.

Measured (issue 30, 2026-12-07, load 4-5) and not shipped. Dev half (34): v3 5-fold 0.574
[0.500-0.647] κ 0.258, leave-one-out 0.618 / κ 0.337; `v3 + said, own feature` (the candidate:
one more sign-constrained weight) 0.662 [0.618-0.676] κ 0.419, LOO 0.676 / κ 0.437; `v3 + said,
pooled with sentences` 0.710 [0.647-0.765] κ 0.499, LOO 0.765 / κ 0.582, but pooling raises the
weight of v3's repeated sentences (-0.05 -> -0.73 fitted on dev) and rates ITSM and medical HR
read-back templates 1: references rated 3/2/1 ITSM 23/24/17, medical HR 26/25/15 (v3 42/22/0,
43/23/0), so it was not the one read on test. The candidate on references: airline 38/2/0,
ITSM 38/24/2, medical HR 41/24/1 (v3 39/1/0, 42/22/0, 43/23/0). Test half (32, read once, for
the candidate): 0.625 / κ 0.422 / qwk 0.671 against v3's 0.719 / 0.557 / 0.738; it changed three
conversations, all for the worse (two people rated 2 rated 1, one rated 3 rated 2); per dimension
its redundant-statement and information-loss findings flagged one conversation more each, and
neither was one people flagged. Features (v3 + candidate) 14.3 ms CPU per conversation.

    PYTHONPATH=src .venv/bin/python benchmarks/progression_said.py [--refs] [--test]
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Any

from label_halves import split_halves
from progression_novelty import cv, feats_of
from progression_rate import agree, confusion_of, dimensions, fit, fmt_agreement
from progression_rate import refs_report as rate_refs

from voxbench.eval.calibration_dims import PROGRESSION_MODES
from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import progression as v3
from voxbench.eval.offline._trace import Conversation, read_conversation, response_failed
from voxbench.eval.offline._values import data_keys, text_keys

ROOT = Path(__file__).resolve().parents[1]
EVA = ROOT.parent / "shared" / "eva-data"
DATASET = EVA / "docs" / "metrics" / "judge_validation_datasets"
Row = dict[str, Any]

RESTATE = re.compile(
    r"\b(just to repeat|to repeat (it|that|this|what)|let me repeat|as i (said|mentioned|explained)"
    r"( (before|earlier))?|like i said)\b",
    re.I,
)
CALLER_ALREADY = re.compile(
    r"\b(i (just|already) (told|gave|said|mentioned)|i (have )?told you (already|that|this)"
    r"|(as|like) i (just |already )?(said|told you|mentioned)|pay attention)\b",
    re.I,
)
CALLER_ASKS = re.compile(r"\?|\b(confirm|double.check|tell me|remind me|repeat|again|make sure)\b", re.I)
"""A caller turn asking for something: what the agent says next answers it."""
READBACK = re.compile(
    r"\b(confirm|read (that|it|this|those|them) back|reading (that|it|this) back"
    r"|is (that|this|everything|all of that) (right|correct)|say yes|before i"
    r"|(about|ready) to (submit|make|process|update|create|book|schedule)|let me (summarize|recap)"
    r"|i have (your|the|it|that) )\b",
    re.I,
)
"""A read-back or a proposal before an action: values said again for verification."""
MIN_RETOLD = 2


def told_keys(text: str) -> set[str]:
    """The values a sentence tells: times, dates, codes of 3+ characters, numbers of 10 or more
    that are not years (a date's year is said with each date)."""
    out = set()
    for k in text_keys(text):
        kind, v = k.split(":", 1)
        if kind == "n" and (not v.replace(".", "").isdigit() or float(v) < 10 or 1900 <= float(v) <= 2100):
            continue
        if kind == "c" and len(v) < 3:
            continue
        out.add(k)
    return out


def agent_turns(conv: Conversation) -> list[dict[str, Any]]:
    """Each agent turn (consecutive agent steps) with what came since the previous one: the
    caller's words and their keys, tool results' keys, whether a write succeeded; and whether
    a write succeeded right after it (`then_write`: the turn proposed it)."""
    out: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    said, keys, tools, wrote = "", set[str](), set[str](), False
    for s in conv.steps:
        if s.kind != "assistant" and cur is not None:
            out.append(cur)
            cur = None
        if s.kind == "user":
            said += " " + s.text
            keys |= text_keys(s.text)
        elif s.kind == "tool_response":
            tools |= data_keys(s.response)
            w = conv.tool_kind(s.tool) == "write" and not response_failed(s.response)
            wrote |= w
            if w and out:
                out[-1]["then_write"] = True
        elif s.kind == "assistant":
            if cur is None:
                cur = {"turn": s.turn, "text": s.text, "caller": said, "caller_keys": keys, "tools": tools,
                       "wrote": wrote, "then_write": False}  # fmt: skip
                said, keys, tools, wrote = "", set(), set(), False
            else:
                cur["text"] += " " + s.text
    if cur is not None:
        out.append(cur)
    return out


def said_findings(ctx: ConversationContext) -> list[dict[str, Any]]:
    """The candidate's findings, {feature, turn, claim, rule}."""
    conv = read_conversation(ctx)
    out: list[dict[str, Any]] = []
    turns = agent_turns(conv)
    told: set[str] = set()
    for i, t in enumerate(turns):
        keys = told_keys(t["text"])
        again = keys & told - t["caller_keys"] - t["tools"]
        unasked = not (
            t["wrote"] or t["then_write"] or CALLER_ASKS.search(t["caller"]) or READBACK.search(t["text"])
        )
        if unasked and i < len(turns) - 1 and len(again) >= MIN_RETOLD:
            out.append({"feature": "retold_values", "turn": t["turn"], "claim": t["text"][:160],
                        "rule": f"tells again values it already told, unasked: {', '.join(sorted(again))}"})  # fmt: skip
        told |= keys
    for s in conv.assistant():
        if RESTATE.search(s.text):
            out.append({"feature": "restatements", "turn": s.turn, "claim": s.text[:160],
                        "rule": "announces that it says something again"})  # fmt: skip
    for s in conv.user():
        if CALLER_ALREADY.search(s.text):
            out.append({"feature": "caller_already_said", "turn": s.turn, "claim": s.text[:160],
                        "rule": "the caller says it already gave this"})  # fmt: skip
    return out


SAID_DIM = {
    "retold_values": "redundant_statements",
    "restatements": "redundant_statements",
    "caller_already_said": "information_loss",
}


def row_of(key: str, ctx: ConversationContext, human: Any = None, modes: Any = ()) -> Row:
    found = v3.findings(ctx)
    said = said_findings(ctx)
    f = v3.features(v3.counts(found))
    f["said"] = float(len(said))
    f["sentences_and_said"] = f["repeated_sentences"] + f["said"]
    dims = {v3.FEATURE_DIM[x["feature"]] for x in found} | {SAID_DIM[x["feature"]] for x in said}
    named = {PROGRESSION_MODES.get(m, m) for m in modes or ()}
    return {"id": key, "h": human, "f": f, "dims": dims, "modes": named}


VARIANTS: dict[str, tuple[str, ...]] = {
    "v3 (shipped features)": v3.FEATURES,
    "v3 + said, pooled with sentences": (
        "identical_calls",
        "repeated_tools",
        "placeholder_calls",
        "sentences_and_said",
    ),
    "v3 + said, own feature": (*v3.FEATURES, "said"),
}
CANDIDATE = "v3 + said, own feature"
BASELINE = "v3 (shipped features)"


def dev_report(dev: list[Row]) -> None:
    print(f"dev half: {len(dev)} conversations (5-fold mean [range] over fold seeds 0-7, leave-one-out)")
    for name, names in VARIANTS.items():
        feats = feats_of(names)
        accs = [agree(dev, cv(dev, feats, s)) for s in range(8)]
        loo = agree(dev, cv(dev, feats, None))
        m = fit(dev, feats)
        ins = agree(dev, {r["id"]: m.rate(feats(r)) for r in dev})
        acc = [a["accuracy"] for a in accs]
        print(
            f"  {name:34s} 5-fold {sum(acc) / 8:.3f} [{min(acc):.3f}-{max(acc):.3f}] κ "
            f"{sum(a['cohen_kappa'] for a in accs) / 8:.3f}  LOO {fmt_agreement(loo)}  fitted on dev {ins['accuracy']:.3f}"
            f"  weights {m.weights} cuts {m.cuts}"
        )


def test_report(dev: list[Row], test: list[Row]) -> None:
    print(f"test half: {len(test)} conversations (read once)")
    for name in (BASELINE, CANDIDATE):
        feats = feats_of(VARIANTS[name])
        m = fit(dev, feats)
        pred = {r["id"]: m.rate(feats(r)) for r in test}
        print(f"  {name}: fitted on dev, test half {fmt_agreement(agree(test, pred))}")
        print(f"    confusion (person->method): {confusion_of(test, pred)}")
        dimensions(test, pred)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DATASET)
    ap.add_argument("--refs", action="store_true")
    ap.add_argument("--test", action="store_true", help="read the test half once")
    args = ap.parse_args()
    halves = split_halves(args.dataset, "conversation_progression")
    t0 = time.process_time()
    dev = [row_of(str(it.item_id), it.ctx, it.human, it.extra.get("failure_modes")) for it in halves.dev]
    print(
        f"features (v3 + candidate): {1000 * (time.process_time() - t0) / len(dev):.1f} ms CPU per conversation"
    )
    dev_report(dev)
    if args.refs:
        rate_refs(dev, EVA, {n: feats_of(VARIANTS[n]) for n in (BASELINE, CANDIDATE)}, rows=row_of)
    if args.test:
        test = [
            row_of(str(it.item_id), it.ctx, it.human, it.extra.get("failure_modes")) for it in halves.test
        ]
        test_report(dev, test)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
