"""The embedded small model as a tie-breaker on one progression dimension (issue 30 item 4),
measured with and without on the development half only.

The dimension is redundant statements. The rule (`progression_dims.py`) counts a sentence that
repeats an earlier one nearly word for word; a paraphrased restatement ("Your five PM flight
is staying confirmed as your backup" after "Your five PM confirmed flight stays in place as
your backup") is below its threshold. The borderline pairs are the agent's sentences sharing at
least half of their content words with a sentence of an earlier agent turn and not repeated
word for word; the local model (`voxbench.localmodels`, llama.cpp, one thread, a JSON-schema
reply) is asked of each whether the later sentence only repeats what the agent already said.
Each "yes" is one more redundant-statement finding (`--cap 1`: at most one per conversation),
and the pooled candidate of `progression_candidates.py` is cross-validated with and without
them. Prints the seconds per conversation too (the default must stay under 1 s). Slow: a few
seconds per pair.

    PYTHONPATH=src .venv/bin/python benchmarks/progression_tiebreak.py [--cap 1]
"""

from __future__ import annotations

import argparse
import json
import re
import time
import urllib.request
from typing import Any

import progression_candidates as pc
from label_halves import split_halves
from progression_dims import agent_sentences, checked
from rapidfuzz import fuzz

from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import ConversationContext
from voxbench.eval.offline.progression import norm as _norm
from voxbench.localmodels.server import LlamaServer

PROMPT = (
    'You judge a customer-service phone agent. Earlier in the call the agent said:\n"{a}"\n'
    'Later the agent said:\n"{b}"\n'
    "Does the later sentence only repeat information the agent had already given (a redundant "
    "statement), rather than giving new information, answering a new question, or confirming a "
    "new action? Answer with JSON."
)
SCHEMA = {
    "type": "json_schema",
    "json_schema": {
        "name": "redundant",
        "schema": {
            "type": "object",
            "properties": {"redundant": {"type": "boolean"}},
            "required": ["redundant"],
        },
    },
}
STOP = frozenset(
    re.findall(
        r"\w+",
        "that this with your have will from what would there their they them been were just about into also"
        " only then than when which while because",
    )
)


def _content(s: str) -> set[str]:
    return {w for w in _norm(s).split() if len(w) > 3 and w not in STOP}


def borderline_pairs(ctx: ConversationContext, overlap: float = 0.5) -> list[tuple[str, str]]:
    """(earlier sentence, later sentence) for each later agent statement whose best earlier
    match (of an earlier turn) shares >= `overlap` of its content words, not word for word."""
    sents = [(t, s) for t, s in agent_sentences(ctx.conversation_trace) if not s.endswith("?") and checked(s)]
    out = []
    for i, (t, s) in enumerate(sents):
        words, best = _content(s), None
        for t0, s0 in sents[:i]:
            earlier = _content(s0)
            if t0 >= t or len(words) < 3 or len(earlier) < 3:
                continue
            share = len(words & earlier) / min(len(words), len(earlier))
            if (
                share >= overlap
                and fuzz.ratio(_norm(s), _norm(s0)) < 80
                and (best is None or share > best[0])
            ):
                best = (share, s0)
        if best:
            out.append((best[1], s))
    return out


def _ask(srv: LlamaServer, a: str, b: str) -> bool:
    body = {
        "model": srv.model,
        "temperature": 0,
        "max_tokens": 20,
        "response_format": SCHEMA,
        "messages": [{"role": "user", "content": PROMPT.format(a=a, b=b)}],
    }
    req = urllib.request.Request(
        srv.base_url + "/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=600) as r:  # loopback only
        text = json.loads(r.read())["choices"][0]["message"]["content"]
    return bool(json.loads(re.sub(r"^```(json)?|```$", "", text.strip()))["redundant"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", default=str(pc.DATASET))
    ap.add_argument("--cap", type=int, default=99, help="at most this many model findings per conversation")
    args = ap.parse_args()
    halves = split_halves(pc.Path(args.dataset), "conversation_progression")
    without, with_model, secs, asked, said_yes = [], [], [], 0, 0
    with LlamaServer(n_threads=1, n_ctx=2048) as srv:
        for it in halves.dev:
            t0 = time.perf_counter()
            yes = sum(_ask(srv, a, b) for a, b in borderline_pairs(it.ctx))
            secs.append(time.perf_counter() - t0)
            asked, said_yes = asked + len(borderline_pairs(it.ctx)), said_yes + yes
            row = pc.row_of(it)
            without.append(row)
            dims = {
                **row["dims"],
                "redundant_statements": row["dims"]["redundant_statements"] + min(yes, args.cap),
            }
            with_model.append({**row, "dims": dims})
    print(f"{asked} borderline pairs on {len(secs)} dev conversations, the model said yes to {said_yes}")
    print(f"seconds per conversation: mean {sum(secs) / len(secs):.1f}, max {max(secs):.1f}")
    fit = pc.COMBINATIONS["pooled"]
    for name, rows in (("without the model", without), ("with the model", with_model)):
        cvs: list[dict[str, Any]] = [pc.fold_agreement(rows, fit, seed) for seed in range(8)]
        rate = fit(rows)
        fitted = agreement([(r["h"], rate(r)) for r in rows], [1, 2, 3], ordinal=True)
        mean = sum(a["accuracy"] for a in cvs) / len(cvs)
        print(f"  {name}: fitted on dev {pc.fmt_agreement(fitted)}; dev 5-fold CV (seeds 0-7) acc {mean:.3f}")
        pc.dimension_agreement(rows, rate)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
