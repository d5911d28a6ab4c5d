"""Does the goal caller say its facts' values and labels in forms a person says, in its lines?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_value_lines.py --data /work/shared/eva-data \
        [--rows] [--out lines.json]

``caller_value_speech.py`` checks each value as said alone; this bench checks the *lines* the caller
builds around them. Every fact of every scenario (culture-resolved as the caller sees it) is said in
five replies, each in the caller's first three seeded phrasings: unasked alone, asked alone ("What
is the <label>?"), asked with another fact, asked with another in the label's words without its
link words ("Could you give me your date birth and your ...?": labels narrowed to the turn's
words), and volunteered after another asked fact. A line is
counted once per (scenario, fact, context, seed), by half (dev/test: ``caller_check_halves.half``),
for each form no person says:

* **underscore**: a raw underscore ('additional_practice_site');
* **glued**: a word in no English lexicon that is an English particle and a lexicon word joined
  ('oncall', 'checkin'): English writes such a compound with a hyphen or apart (a gerund is
  written solid: 'offboarding');
* **article**: an enum value (a snake_case identifier of two words or more, no link word) ending
  in a singular noun that counts, said right after "It's" or "... is" with no article, where its
  label's head names a kind (a reason, a type, a method: "It's additional practice site.", "The
  reason is role change."). Whether a noun counts is the caller's own test
  (:func:`~voxbench.pipelines.caller.goal.category.counted_noun`, data in ``goal/lang``): the
  figure says where the rule applies, not whether the rule is right; ``bare`` counts every enum
  value of two words or more said so, whatever its head, for a reader to judge the rest.

Labels (``The <label> is <value>``) are checked over all fact keys: a line "The|My <label> is|are"
whose label drops a word of the key from between two it keeps, in the key's order ('date of
birth' read 'date birth'), or spells as letters a key word that is a lexicon word of four letters or more ('M A X').
``--rows`` prints DEV lines with a problem only.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from caller_check_halves import half
from caller_value_speech import scenarios

from voxbench.pipelines.caller.goal.category import ARTICLE_HEADS, category_phrase
from voxbench.pipelines.caller.goal.labels import fact_label
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.speech import IDENTIFIER, key_parts
from voxbench.spoken.lexicon import is_word

PARTICLES = ("on", "off", "in", "out", "up", "down", "over", "back")
"""English particles that make phrasal compounds ('on-call', 'check-in', 'drop-off')."""
LINKS = {"of", "for", "at", "in", "on", "to", "and", "or"}
SEEDS = 3
CHECKS = ("underscore", "glued", "article", "bare", "label")


def glued(text: str) -> list[str]:
    """Words of ``text`` that are a particle and a lexicon word joined, in no lexicon themselves."""
    out = []
    for m in re.finditer(r"[A-Za-z]+", text):
        w, low = m.group(0), m.group(0).lower()
        opens = not text[: m.start()].strip() or text[: m.start()].rstrip()[-1] in ".!?"
        name = w.istitle() and not opens  # a capital inside a sentence: a name ('ProAssurance')
        if len(low) < 5 or is_word(low) or low.endswith("ing") or name:
            continue
        if any(
            (low.startswith(p) and is_word(low[len(p) :])) or (low.endswith(p) and is_word(low[: -len(p)]))
            for p in PARTICLES
            if len(low) - len(p) >= 3
        ):
            out.append(w)
    return out


def bare_after_be(text: str, said: str) -> bool:
    """``said`` right after "It's" or "is", with no article, in ``text``."""
    return bool(re.search(rf"(?:\bIt's|\bis) {re.escape(said)}[.,]", text, re.I))


def label_problems(text: str, key: str) -> list[str]:
    """Labels in "The|My <label> is|are" that drop a key word from between two kept ones, or spell
    a lexicon word of the key as letters."""
    words = [w.lower() for w in key_parts(key.split(".")[-1]) if not w.isdigit()]
    out = []
    for m in re.finditer(r"\b(?:The|My|my|the) ((?:[\w'-]+ ){0,6}?[\w'-]+) (?:is|are)\b", text):
        said = [w.lower().removesuffix("'s") for w in m.group(1).split()]
        for run in re.findall(r"\b[A-Z](?: [A-Z]\b)+", m.group(1)):
            joined = run.replace(" ", "").lower()
            if len(joined) >= 4 and is_word(joined):
                out.append(f"spelled {run!r}")
        kept = [i for i, w in enumerate(words) if w in said]
        if len(kept) >= 2:
            gap = [words[i] for i in range(kept[0] + 1, kept[-1]) if words[i] not in said]
            in_order = [words.index(w) for w in said if w in words] == kept  # no reordering ('trial license')
            if gap and in_order and said == [w for w in said if w in words]:
                out.append(f"dropped {gap} in {m.group(1)!r}")
    return out


def replies(caller: GoalCaller, key: str, other: str | None) -> dict[str, str]:
    f = caller.book.get(key)
    assert f is not None
    q = f"What is the {fact_label(f, caller.say.acronyms)}?"
    out = {"unasked": caller.say.answer([key]), "asked": caller.say.answer([key], q, [key], q)}
    if other:
        out["asked2"] = caller.say.answer([key, other], q, [key, other], q)
        o = caller.book.get(other)
        content = [w for w in fact_label(f, caller.say.acronyms).split() if w.lower() not in LINKS]
        q2 = f"Could you give me your {' '.join(content)} and your {fact_label(o, caller.say.acronyms) if o else ''}?"
        out["asked_words"] = caller.say.answer([key, other], q2, [key, other], q2)
        out["volunteered"] = caller.say.answer([other, key], "What is it?", [other], "What is it?")
    return out


def run(data: str) -> list[dict[str, Any]]:
    rows = []
    for domain, sc in scenarios(data):
        caller = GoalCaller(sc)
        keys = [f.key for f in caller.book]
        for f in caller.book:
            other = next((k for k in keys if k != f.key), None)
            value = str(f.value).strip()
            enum = (
                isinstance(f.value, str)
                and bool(IDENTIFIER.match(value))
                and not LINKS & set(value.split("_"))
            )
            label = fact_label(f, caller.say.acronyms).split()
            said = caller.say.value(f)
            for seed in range(SEEDS):
                caller.say.phr = Phrasing(seed)
                for ctx, text in replies(caller, f.key, other).items():
                    bare = enum and bare_after_be(text, said)
                    rows.append({
                        "domain": domain, "id": sc.id, "half": half(domain, sc.id), "key": f.key,
                        "value": value, "ctx": ctx, "seed": seed, "text": text,
                        "underscore": "_" in text, "glued": glued(text),
                        "article": bare and category_phrase(f.value, label),
                        "bare": bare and label[-1:] != [] and label[-1] in ARTICLE_HEADS,
                        "label": label_problems(text, f.key),
                    })  # fmt: skip
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    agg: dict[tuple[str, str], int] = defaultdict(int)
    for r in rows:
        for h in (r["half"], "all"):
            agg[("lines", h)] += 1
            for c in CHECKS:
                agg[(c, h)] += bool(r[c])
    lines = [f"{'check':<11} {'dev':>12} {'test':>12} {'all':>12}"]
    for c in ("lines", *CHECKS):
        lines.append(f"{c:<11} " + " ".join(f"{agg[(c, h)]:>12}" for h in ("dev", "test", "all")))
    keys = {(r["domain"], r["key"], r["half"]) for r in rows}
    bad = {(r["domain"], r["key"], r["half"]) for r in rows if r["label"]}
    lines.append(
        f"{'label keys':<11} "
        + " ".join(
            f"{sum(1 for k in bad if k[2] == h or h == 'all'):>5}/{sum(1 for k in keys if k[2] == h or h == 'all'):<6}"
            for h in ("dev", "test", "all")
        )
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    data = argv[argv.index("--data") + 1] if "--data" in argv else "/work/shared/eva-data"
    rows = run(data)
    print(table(rows))
    show_rows(rows, argv, CHECKS)
    return 0


def show_rows(rows: list[dict[str, Any]], argv: list[str], checks: Sequence[str]) -> None:
    """``--rows``: each dev line with a problem of ``checks`` once; ``--out FILE``: every row as JSON."""
    if "--rows" in argv:
        seen: set[str] = set()
        for r in rows:
            problems = {c: r[c] for c in checks if r[c]}
            if r["half"] != "dev" or not problems or r["text"] in seen:
                continue
            seen.add(r["text"])
            print(f"{r['domain']}/{r['id']} {r['key']} [{r['ctx']}] {problems}: {r['text']}")
    if "--out" in argv:
        Path(argv[argv.index("--out") + 1]).write_text(json.dumps(rows, indent=0), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
