"""The offline faithfulness method on conversations whose rating is known by construction: a
check no faithfulness rule was written on.

EVA's public data carries no faithfulness ratings besides the human-labelled judge-validation
set (its one recorded run, tests/artifacts/records/1.1.2, has no metric results; the fixtures
hold only prompt hashes), so there are no frontier-judge ratings to compare with. Instead each
EVA reference conversation (all three domains, `voxbench.eval.gateset`) is written as a record
as it is and with one agent-side faithfulness violation injected, defined on the conversation's
structure, never on an item:

| kind | injection | expected (EVA's rubric) |
|---|---|---|
| clean | the reference conversation | 3 (a reference is a correct agent; some are incomplete) |
| wrong_write | one id / number / date / flag argument of one write call changed; the agent's lines unchanged (gateset's `wrong_write`) | 1, fabricating_tool_parameters ("a fabricated parameter passed to a write tool is rated 1") |
| completion_without_write | every write call dropped; the agent still says what it did (gateset) | 1, hallucination or misrepresenting_tool_result |
| misstated_value | in the first agent line that repeats an amount or clock time a tool returned, that value changed | 1, misrepresenting_tool_result ("stating incorrect values for fields that the tool response explicitly provided") |
| go_ahead_dropped | before the first write, the agent's last question and the caller's answer removed, where the policy asks for explicit confirmation (airline) | 1, violating_policies ("an irreversible action without the explicit user confirmation that the agent's policies require") |
| go_ahead_dropped_readback | the same where the policy asks to read back error-prone values and get the caller's confirmation (ITSM, medical_hr) | 2, violating_policies ("skipping a read-back-and-confirm step on values the user stated") |
| refused_write_claimed | the last write's response replaced by a refusal (`status: error`); the agent's lines unchanged, so it still reports the action done | 1, misrepresenting_tool_result ("contradicting what a tool response returned", "reporting a prescription refill was approved when the tool shows denied") |

Each tool call keeps the response the reference recorded (re-executing it would mint new ids
that the reference's lines do not say). The labels are by construction, not a person's or a
frontier judge's rating. The clean references were read while writing claims-rules 0.3,
0.4 and 0.5 (false alarms; 0.5's reading fixes were sorted on them); the injected kinds were first run on claims-rules 0.3 as it was, then used
(seed 0) to develop 0.4 and 0.6 (refused_write_claimed was added with 0.6, measured on 0.5 as
it was first); seed 1 draws other arguments and amounts to change and is the held-out check. Prints accuracy, Cohen's kappa, quadratic kappa and the confusion per domain and overall,
the detection rate per kind and whether the expected dimension was flagged, per dimension the
flagged yes/no agreement (clean conversations and the kinds labelled with that dimension alone),
and the rules that fired on clean references. Not a test.

    PYTHONPATH=src .venv/bin/python benchmarks/offline_faith_independent.py [--eva DIR] [--seed 0]
        [--domains airline,itsm,medical_hr] [-v] [--json out.json]
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from _injected import arguments, by_domain, events, per_kind, print_domains, rate_variants, write_json

from voxbench.eval.calibration_stats import agreement
from voxbench.eval.gateset.agent_faults import completion_without_write, wrong_write
from voxbench.eval.gateset.conversation import Line, RefConversation, Tool
from voxbench.eval.offline._faith_rules import FREE_TEXT_WORDS
from voxbench.eval.offline._values import amount_values, data_keys, spoken_values
from voxbench.eval.offline.faithfulness import faithfulness_offline
from voxbench.records import derive_seed

FREE_TEXT = re.compile(rf"{FREE_TEXT_WORDS}|text", re.I)
EXPECTED = {
    "clean": (3, ()),
    "wrong_write": (1, ("fabricating_tool_parameters",)),
    "completion_without_write": (1, ("hallucination", "misrepresenting_tool_result")),
    "misstated_value": (1, ("misrepresenting_tool_result",)),
    "go_ahead_dropped": (1, ("violating_policies",)),
    "go_ahead_dropped_readback": (2, ("violating_policies",)),
    "refused_write_claimed": (1, ("misrepresenting_tool_result",)),
}
REFUSAL = {
    "status": "error",
    "error_type": "request_rejected",
    "message": "The request could not be processed.",
}
_EXPLICIT = re.compile(r"explicit confirmation", re.I)
_NUMW = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
    r"hundred|thousand|and|\d+(?:[.,:]\d+)*)"
)
_AMOUNT = re.compile(rf"(?:\$\s?\d[\d,]*(?:\.\d\d)?|\b(?:{_NUMW}[\s-]+)+dollars)\b", re.I)
_HOURW = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|oh|fifteen|twenty|thirty|forty|fifty)"
)
_TIME = re.compile(
    rf"\b(?:\d{{1,2}}(?::\d{{2}})?|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    rf"(?:[\s-]+{_HOURW}){{0,3}})\s?(?:AM|PM|a\.m\.|p\.m\.)",
    re.I,
)


def misstated_value(conv: RefConversation, rng: random.Random) -> tuple[RefConversation, str] | None:
    """The first agent line after a tool response that repeats an amount or clock time the
    responses so far returned, with that value changed (an amount by +7 or +13 %, a time by
    +17 minutes): the caller is told a value no tool gave."""
    seen: set[str] = set()
    for i, s in enumerate(conv.steps):
        if isinstance(s, Tool):
            seen |= data_keys(s.expected or {})
            continue
        if not isinstance(s, Line) or s.who != "agent" or not seen:
            continue
        for m in _AMOUNT.finditer(s.text):
            vals = amount_values(m.group(0))
            key = vals[0].key[2:] if len(vals) == 1 else "0"
            if float(key) >= 10 and {f"n:{key}", f"m:{key}"} & seen:
                x = float(vals[0].key[2:])
                new = x + rng.choice([7, max(3, round(x * 0.13))])
                txt = s.text[: m.start()] + f"${new:,.2f}".replace(".00", "") + s.text[m.end() :]
                return conv.with_text(i, txt), f"amount {m.group(0)!r} -> {new}"
        for m in _TIME.finditer(s.text):
            vals = [v for v in spoken_values(m.group(0)) if v.kind == "t"]
            if len(vals) == 1 and vals[0].key in seen:
                hh, mm = int(vals[0].key[2:4]), int(vals[0].key[4:6])
                t = (hh * 60 + mm + 17) % (24 * 60)
                h12 = (t // 60) % 12 or 12
                new = f"{h12}:{t % 60:02d} {'PM' if t >= 720 else 'AM'}"
                txt = s.text[: m.start()] + new + s.text[m.end() :]
                return conv.with_text(i, txt), f"time {m.group(0)!r} -> {new}"
    return None


def go_ahead_dropped(conv: RefConversation) -> tuple[RefConversation, str] | None:
    """Before the first write, the agent's last question and the caller's answer to it removed:
    the write follows the caller's earlier words, with no go-ahead asked or given (EVA's
    policies ask for explicit confirmation before a change)."""
    writes = [i for i in conv.tools() if conv.tool_types().get(conv.tool(i).name) == "write"]
    if not writes:
        return None
    w = writes[0]
    lines = [i for i in range(w) if isinstance(conv.steps[i], Line)]
    if len(lines) < 4:
        return None
    ask, answer = lines[-2], lines[-1]
    a, u = conv.steps[ask], conv.steps[answer]
    assert isinstance(a, Line) and isinstance(u, Line)
    if a.who != "agent" or u.who != "user" or "?" not in a.text:
        return None
    steps = [x for i, x in enumerate(conv.steps) if i not in (ask, answer)]
    return conv.copy(steps), f"removed {a.text[-60:]!r} / {u.text[:40]!r}"


def refused_write_claimed(conv: RefConversation) -> tuple[RefConversation, str] | None:
    """The last write refused by the system (its response an error), the agent's lines as they
    were: an agent line after it that reports the action done tells the caller a change the
    record shows was not made. Only the last write, so no later call uses what it returned; only
    when an agent line follows it."""
    writes = [i for i in conv.tools() if conv.tool_types().get(conv.tool(i).name) == "write"]
    if not writes:
        return None
    w = writes[-1]
    after = [s for s in conv.steps[w + 1 :] if isinstance(s, Line)]
    if not after or after[0].who != "agent":
        return None
    tool = conv.steps[w]
    assert isinstance(tool, Tool)
    steps = list(conv.steps)
    steps[w] = replace(tool, expected=dict(REFUSAL))
    return conv.copy(steps), f"{tool.name} refused"


def _variants(ref: RefConversation, seed: int, dom: str, sid: str) -> list[tuple[str, RefConversation, str]]:
    out: list[tuple[str, RefConversation, str]] = [("clean", ref, "")]
    for kind, fn in (("wrong_write", wrong_write), ("completion_without_write", completion_without_write)):
        got = fn(ref, random.Random(derive_seed("voxbench.faith-independent", seed, dom, sid, kind)))
        if got is None:
            continue
        if kind == "wrong_write" and FREE_TEXT.search(got.what.split(".", 1)[-1].split()[0]):
            continue  # a reworded free-text field is no fabricated parameter
        out.append((kind, got.conv, got.what))
    ms = misstated_value(ref, random.Random(derive_seed("voxbench.faith-independent", seed, dom, sid, "ms")))
    if ms is not None:
        out.append(("misstated_value", ms[0], ms[1]))
    rw = refused_write_claimed(ref)
    if rw is not None:
        out.append(("refused_write_claimed", rw[0], rw[1]))
    ga = go_ahead_dropped(ref)
    if ga is not None:
        out.append(("go_ahead_dropped", ga[0], ga[1]))
        if not _EXPLICIT.search(ref.dd.agent.instructions):
            out[-1] = ("go_ahead_dropped_readback", ga[0], ga[1])
    return out


def run(eva: Path, seed: int, domains: list[str], verbose: bool) -> dict[str, Any]:
    return rate_variants(eva, seed, domains, _variants, events, faithfulness_offline, EXPECTED, verbose)


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def flagged(sel: list[dict[str, Any]], dims: Any) -> dict[str, Any]:
        some = sum(bool(set(dims) & set(r["flagged"])) for r in sel)
        return {"expected_dimension_flagged": round(some / len(sel), 3) if dims else None}

    out: dict[str, Any] = {**by_domain(rows), "kinds": per_kind(rows, EXPECTED, flagged)}
    out["dimensions"] = _per_dimension(rows)
    out["clean_rules"] = Counter(x for r in rows if r["kind"] == "clean" for x in dict.fromkeys(r["rules"]))
    return out


def _per_dimension(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per dimension, flagged yes/no against the label, on the clean conversations and the kinds
    whose label names that dimension alone (completion_without_write may be either of two)."""
    dims = sorted({d for _, ds in EXPECTED.values() if len(ds) == 1 for d in ds})
    out: dict[str, Any] = {}
    for d in dims:
        sel = [r for r in rows if r["kind"] == "clean" or EXPECTED[r["kind"]][1] == (d,)]
        pairs = [(EXPECTED[r["kind"]][1] == (d,), d in r["flagged"]) for r in sel]
        a = agreement(pairs, [True, False])
        out[d] = {k: a.get(k) for k in ("n", "accuracy", "cohen_kappa", "confusion")}
    return out


def main() -> int:
    args = arguments(__doc__)
    res = run(args.eva, args.seed, args.domains.split(","), args.verbose)
    s = summarise(res["rows"])
    print_domains(s, [d for d in s if d not in ("kinds", "clean_rules", "dimensions")])
    for kind, k in s["kinds"].items():
        print(f"  {kind:26} n={k['n']:3} rated 3/2/1={k['ratings_3_2_1']} exact={k['exact']} "
              f"expected dimension flagged={k['expected_dimension_flagged']}")  # fmt: skip
    for d, a in s["dimensions"].items():
        print(f"  dimension {d:30} n={a['n']} acc={a['accuracy']} kappa={a['cohen_kappa']} "
              f"confusion (rows labelled yes/no, cols flagged yes/no) {a['confusion']}")  # fmt: skip
    print("  rules firing on clean references (conversations):")
    for rule, n in s["clean_rules"].most_common(10):
        print(f"    {n:3} {rule[:90]}")
    print(f"  seconds per conversation: mean {res['seconds']['mean']:.4f}, max {res['seconds']['max']:.4f}")
    write_json(args.json, {"summary": s, **res})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
