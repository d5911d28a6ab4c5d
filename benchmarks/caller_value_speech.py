"""Are the goal caller's fact values said as a person says them, kind by kind?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_value_speech.py --data /work/shared/eva-data \
        [--rows] [--kind K] [--out report.json]

Every fact of every scenario (``information_required`` and the seed facts the caller holds,
culture-resolved as the caller sees them) is classed by its *value kind* and said the way the goal
caller says it (:meth:`~voxbench.pipelines.caller.goal.facts.Fact.spoken`, and in a sentence,
``caller.say.answer([key])``). Two automatic checks, per kind and per half (dev/test, the fixed
split of ``caller_check_halves.half``):

* **unsaid**: the spoken value holds a token a TTS would not say as a person does
  (:func:`voxbench.spoken.lexicon.unsaid_tokens`): a word in capitals, a word that is in no English
  lexicon (the CMU dictionary's words shipped in the package; a capitalised name allowed for names),
  an ISO date, a 24-hour or zero-led time, digits joined to letters, a symbol;
* **checker**: the sentence fails the speech checker of issue 29 point 4
  (:func:`voxbench.pipelines.caller.goal.speech.said_problems`: each disclosed value said, no other).

Kinds (by the value, then its key's words): date, time, money, number, code (letters and digits),
letters (a code of letters only: spelled), name, enum (one identifier of lexicon words: 'read_only'),
brand (one word in small letters that is no lexicon word: 'macos'), contact (phone, email),
text (free text), list. ``--rows`` prints the values with a problem of DEV scenarios only.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from caller_check_halves import half

from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.speech import key_parts, said_problems, value_kind
from voxbench.scenarios import Scenario, load_dataset
from voxbench.spoken.lexicon import is_word, unsaid_tokens

KINDS = (
    "date",
    "time",
    "money",
    "number",
    "code",
    "letters",
    "name",
    "enum",
    "brand",
    "contact",
    "text",
    "list",
)


def bench_kind(value: Any, key: str) -> str:
    """The value kind of the bench (finer than the caller's own for codes and text)."""
    kind = value_kind(value, key_parts(key))
    v = str(value).strip()
    if kind == "code":
        return "code" if any(c.isdigit() for c in v) else "letters"
    if kind in ("text", "number") and ("@" in v or re.fullmatch(r"\+?[\d\s().-]{7,}", v)):
        return "contact"
    if kind != "text":
        return kind if kind != "yes_no" else "enum"
    if " " not in v:
        words = [w for w in re.split(r"[_\-]+", v) if w]
        if len(words) == 1 and v.islower() and not is_word(v):
            return "brand"
        return "enum"
    return "text"


def scenarios(data: str) -> list[tuple[str, Scenario]]:
    out = []
    for domain, dd in load_dataset(data, None).domains.items():
        for sc in dd.scenarios.values():
            resolved = dd.resolver(sc, "en").resolve(sc.model_dump(mode="json"))
            out.append((domain, Scenario.model_validate(resolved)))
    return out


def run(data: str) -> list[dict[str, Any]]:
    rows = []
    for domain, sc in scenarios(data):
        caller = GoalCaller(sc)
        for f in caller.book:
            kind = bench_kind(f.value, f.key)
            spoken = f.spoken()
            text = caller.say.answer([f.key])
            others = {o.key: o.value for o in caller.book if o.key != f.key}
            rows.append({
                "domain": domain, "id": sc.id, "half": half(domain, sc.id), "key": f.key, "kind": kind,
                "value": str(f.value), "spoken": spoken,
                "unsaid": unsaid_tokens(spoken, names=kind == "name", words=kind != "contact"),
                "checker": said_problems(text, {f.key: f.value}, others, caller.say.acronyms),
                "sentence": text,
            })  # fmt: skip
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    agg: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        for h in (r["half"], "all"):
            a = agg[(r["kind"], h)]
            a[0] += 1
            a[1] += bool(r["unsaid"])
            a[2] += bool(r["checker"])
    lines = [
        f"{'kind':<9} {'values':>7} {'unsaid dev':>11} {'unsaid test':>12} {'unsaid all':>11} {'checker all':>12}"
    ]
    for kind in KINDS:
        a, d, t = agg[(kind, "all")], agg[(kind, "dev")], agg[(kind, "test")]
        if a[0]:
            lines.append(
                f"{kind:<9} {a[0]:>7} {d[1]:>6}/{d[0]:<4} {t[1]:>7}/{t[0]:<4} {a[1]:>6}/{a[0]:<4} {a[2]:>7}/{a[0]:<4}"
            )
    tot = [sum(agg[(k, h)][1] for k in KINDS) for h in ("dev", "test", "all")]
    n = [sum(agg[(k, h)][0] for k in KINDS) for h in ("dev", "test", "all")]
    chk = sum(agg[(k, "all")][2] for k in KINDS)
    lines.append(
        f"{'total':<9} {n[2]:>7} {tot[0]:>6}/{n[0]:<4} {tot[1]:>7}/{n[1]:<4} {tot[2]:>6}/{n[2]:<4} {chk:>7}/{n[2]:<4}"
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = dict(zip(argv[::2], argv[1::2], strict=False)) if "--rows" not in argv else {}
    data = argv[argv.index("--data") + 1] if "--data" in argv else "/work/shared/eva-data"
    kind = argv[argv.index("--kind") + 1] if "--kind" in argv else None
    rows = run(data)
    print(table(rows))
    if "--rows" in argv:
        seen: set[tuple[str, str]] = set()
        for r in rows:
            if r["half"] != "dev" or (kind and r["kind"] != kind) or not (r["unsaid"] or r["checker"]):
                continue
            if (r["value"], r["spoken"]) in seen:
                continue
            seen.add((r["value"], r["spoken"]))
            print(
                f"{r['kind']:<8} {r['value']!r} -> {r['spoken']!r} unsaid={r['unsaid']} checker={r['checker']}"
            )
    out = args.get("--out") or (argv[argv.index("--out") + 1] if "--out" in argv else None)
    if out:
        Path(out).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
