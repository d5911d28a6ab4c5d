"""Draw the fixed development/test split of EVA's visible judge-validation labels once and
write it to `src/voxbench/eval/offline/label_split.json` (how: `voxbench.eval.label_split`).

The split is drawn once and committed; redrawing it (another seed, new labels) makes every
rule written since then in-sample again on part of the new test half, so do it only when the
labels change, and say so. Methods are developed on the dev half only; the test half is read
by calibration alone.

    PYTHONPATH=src .venv/bin/python scripts/split_offline_labels.py [--dataset DIR] [--seed 30]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from voxbench.eval.calibration_items import DATASET_METRICS, UNSUPPORTED, load_items
from voxbench.eval.label_split import SPLIT_FILE, SPLIT_SEED, split_items

# Methods (and versions) developed before the split existed, reading every visible label: their
# test-half figure is not on unseen labels. A method re-developed on the dev half only gets a new
# version and drops out of this table.
SEEN_TEST_HALF = {
    "faithfulness": {
        "claims-rules 0.2": "rules written reading all visible labels",
        "claims-rules 0.3": "0.2's rules (written reading all visible labels) plus changes developed on the "
        "dev half and EVA's unlabelled reference conversations",
        "claims-rules 0.4": "0.3's rules plus changes kept only where the dev half and the injected-fault "
        "set (benchmarks/offline_faith_independent.py) did not disagree; the test half was read once, after",
        "claims-rules 0.5": "0.4's rules plus value readings (the pronoun I, o'clock before A M, a digit group's "
        "leading zero inside a code, a number read back in chunks, ', dash,', O and zero in a read-back, format "
        "examples, the agent's own searched times) developed on EVA's unlabelled reference conversations, "
        "checked on the dev half and the injected-fault set; the test half was read once, after",
        "claims-rules 0.6": "0.5's rules plus changes developed on the injected-fault set, seed 0 only (an enum "
            "value no source names is fabricated even when the tool took it; only a duration the "
            "record holds shifts a known time; a write without the go-ahead the policy asks for "
            "is a 1; an action told done right after a refused write; a colon and a space "
            "separate values; a figure is a fare difference plus a smaller fee only, terms of at "
            "least 5; a clock time or a 3-character code in a write needs a source, 'floor three'"
            " names FL3; a count before a caller's acronym is no code), seed 1 read once as the "
            "held-out check; the test half was read twice as aggregates (0.794 both times, one "
            "conversation below 0.5): a charge no source held told by naming the fee was removed "
            "after the first read (it lost 3 dev conversations), a caller's question back as no "
            "go-ahead after the second (the one test rating that differed from 0.5's, found from "
            "the method's own per-item outputs, no labels); after that every test-half rating "
            "equals 0.5's",
    },
    "transcription_accuracy_key_entities": {
        "entity-rules 0.1": "rules written reading all visible labels",
        "entity-rules 0.2": "0.1's rules (written reading all visible labels) plus two clock-time readings "
        "(digit by digit, 'o clock'/'ock') developed on the dev half",
        "entity-rules 0.3": "0.2's rules (0.1's written reading all visible labels) plus readings of spoken forms (NATO-word codes, a seat-like tail of a "
        "spelled code, codes an STT broke with a hyphen, spellings written as the word, 'the twenty fifth of', "
        "'double', midnight, a clock time heard without its am/pm, digits said one by one) developed on the dev half and on stated forms, no label read",
    },
    "conciseness": {
        "listening-load-logit 2": "features chosen by 5-fold CV over all visible labels "
        "(constants fitted on the dev half)",
        "listening-load-logit 3": "2's features and constants, plus a tool response read out rated 1 (developed on "
            "EVA's unlabelled reference conversations; the labels hold no tool responses, so "
            "every visible-label rating equals 2's)",
        "listening-load-logit 4": "3's counts and constants (2's features chosen by 5-fold CV over all visible labels; "
            "constants fitted on the dev half) plus sentences not needed (the previous turn's "
            "statements said again, two filler sentences, background nobody asked for; "
            "conciseness_said.py), developed on the dev half, EVA's unlabelled reference "
            "conversations and the injected-verbosity set (seed 0 for development; seed 1 read "
            "twice for the first version, 0.868 and, after codes said in digit words were "
            "exempted, 0.864); the test half read once as aggregates, after (acc 0.902 / kappa "
            "0.766 / qwk 0.921, equal to 3's). Its filler and background tables were partly "
            "written from the injected bench's sentences, so its bench figures for those kinds "
            "were in-sample. Mended after a review (b127d3f: the recap before a closing exchange,"
            " codes as one token, more ways of asking again and wh-questions without a mark, word"
            " forms, push-back, distinct modes counted, tables rebuilt from a class definition "
            "with the bench-derived words and content verbs removed; the reviewer's 18 ordinary "
            "turns as tests), developed on the dev half, the reference conversations and injected"
            " seed 0; seed 1 read once for the mend (0.814); the test half read once more as "
            "aggregates for the mend (acc 0.902 / kappa 0.766 / qwk 0.921, unchanged). On the "
            "visible labels version 4 changes exactly one rating (a dev turn, background, rated 2"
            " by people); no test-half rating moved as far as the aggregates show",
    },
    "conversation_progression": {
        "stall-count-ordinal 2": "features and sign constraint chosen by 5-fold CV over all visible labels "
        "(constants fitted on the dev half)",
        "stall-count-ordinal 3": "version 2's features (chosen by CV over all visible labels); categorical values, "
        "open offers of help and go-aheads exempted on EVA's unlabelled reference conversations",
        "stall-count-ordinal 5": "version 3's features and constants; sentences worded like an earlier one "
        "exempted when a tool returned one of their values since or, valueless, a write finished since (found on "
        "EVA's unlabelled reference conversations); no labelled conversation's counts changed, the test half "
        "read once, after",
        "stall-count-ordinal 6": "version 5's features and constants (chosen by CV over all visible labels for version"
            " 2; refit: unchanged), plus a cap on a re-asked fact (2; two or more: 1), read from "
            "the record: after a successful call used a value the caller gave, the caller's next "
            "line gives that value back. A first draft (dd8fde8) also capped a failed first-turn "
            "call with a made-up value and read re-asks from the agent's wording (\"your\" + a "
            "parameter's words); its test half was read once (aggregates equal to version 5's). A"
            " review (2026-12-07) found that people disagreed with the premature-call flag on "
            "both labelled dev instances (flagged for other dimensions), the injected-fault bench"
            " had no premature kind, and the bench's re-ask and cut-off wordings were the rule's "
            "own patterns. The mend dropped the premature rule and reads the re-ask from the "
            "caller's answer; developed on the dev half (no dev conversation has a re-ask: every "
            "dev rating equals version 5's), EVA's unlabelled reference conversations, the "
            "reviewer's hand-made traces and the injected-fault set's seed 0 (re-ask wordings "
            "without \"your\" and a new-record control written before they were run; the re-ask "
            "answer changed to the value after the run showed the old answer often held none); "
            "seed 1 read once; the test half read a second time, once for the mend, as "
            "aggregates: 0.719 / kappa 0.557 / qwk 0.738 and every per-dimension figure equal to "
            "version 5's",
        "stall-count-ordinal 7": "version 6's weighed counts and constants (features chosen by CV over all visible "
            "labels for version 2), plus a cap read from the record: a write done again with the "
            "same parameters after it succeeded rates 1, not when a caller line between the two "
            "calls asks for it again, nor for an ancillary write (bags, seats, meals) whose "
            "repeat is a quantity; developed on the dev half (error analysis of its "
            "disagreements) and the injected-fault set (seed 0). The first draft also capped "
            "announced restatements and a caller protesting it already answered (phrase lists "
            "from the dev conversations they fixed); its test half was read once (0.719, equal to"
            " version 6's); a review (2026-12-07) found both fired on ordinary speech and caught "
            "few reworded stalls, so they were removed; the test half read once more, as "
            "aggregates, for the mend",
    },
}  # fmt: skip
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATASET = ROOT.parent / "shared" / "eva-data" / "docs" / "metrics" / "judge_validation_datasets"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    ap.add_argument("--seed", type=int, default=SPLIT_SEED)
    ap.add_argument("--out", type=Path, default=SPLIT_FILE)
    args = ap.parse_args()
    sets: dict[str, Any] = {}
    for stem in DATASET_METRICS:
        f = args.dataset / f"{stem}.jsonl"
        if stem in UNSUPPORTED or not f.is_file():
            continue
        _, items, _ = load_items(f)
        halves = split_items(stem, items, args.seed)
        sets[stem] = {"sha256": hashlib.sha256(f.read_bytes()).hexdigest(), **halves}
        print(f"{stem}: dev {len(halves['dev'])} / test {len(halves['test'])} items")
    out = {
        "seed": args.seed,
        "how": "by conversation (same opening caller words = one group), stratified by label class "
        "within the one domain (airline), seeded hash order; see voxbench.eval.label_split",
        "sets": sets,
        "seen_test_half": SEEN_TEST_HALF,
    }
    fd, tmp = tempfile.mkstemp(dir=args.out.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(out, indent=1) + "\n")
    os.replace(tmp, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
