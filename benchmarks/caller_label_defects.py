"""Label defects in the goal caller's lines: forms of a fact's label or value no person says.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_label_defects.py --data /work/shared/eva-data \
        [--rows] [--out defects.json]

The lines are those of ``caller_value_lines.py`` (every fact of every scenario said in five
replies, in the caller's first three seeded phrasings); each line is checked for four defects of
the label that frames a value ("The <label> is ...", "My <label> is ...", "It's ..."), counted
once per line by half (dev/test: ``caller_check_halves.half``):

* **bare_verb**: a label ending in a link word ('for', 'to') and a key word with no article that
  a verb's '-ing' form exists for ('the date for rebook' from ``date_needed_for_rebook``); a word
  that is also a noun ('the reason for transfer') is counted too: the figure says where the form
  occurs, a reader judges the rest (``--rows``);
* **lost_head**: a label of a value head alone ('My number is C Y ...', 'The date is ...') for a
  key with a content word besides it (``dea_number``): the label no longer says which number;
* **not_owned**: 'my' before a word naming the role of a person ('My passenger first name is
  ...'): the caller's own name, not its passenger's;
* **bare_noun**: a one-word value in small letters that is a singular noun that counts, of a key
  whose head names a kind (``category.ARTICLE_HEADS``: type, category, reason...), said right
  after "It's" or "is" with no article ('It's footrest.' for ``equipment_type``): the category
  check of ``caller_value_lines.py`` for values of one word. A value of any other head ('The seat
  preference is window.', 'It's spouse.') is not counted: said so, it names a kind too.

``--rows`` prints DEV lines with a defect only; test is read as the table only.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from caller_value_lines import bare_after_be, run, show_rows

from voxbench.pipelines.caller.goal.category import ARTICLE_HEADS, counted_noun
from voxbench.pipelines.caller.goal.speech import key_parts
from voxbench.spoken.lexicon import is_word

CHECKS = ("bare_verb", "lost_head", "not_owned", "bare_noun")
HEADS = ("number", "code", "id", "date", "time")
ROLES = ("passenger", "customer", "caller", "traveler", "traveller", "patient", "member", "user", "guest")
"""Words naming the role a person plays for an agent; 'my passenger' is someone the caller has."""
STOP = {
    "if",
    "asked",
    "requested",
    "provided",
    "eventually",
    "the",
    "a",
    "an",
    "of",
    "for",
    "to",
    "your",
    "my",
}
_LABEL = re.compile(r"\b(?:The|My|my|the) ((?:[\w'-]+ ){0,6}?[\w'-]+) (?:is|are)\b")


def verb_form(word: str) -> bool:
    """A word an '-ing' form of is in the lexicon ('rebook' -> 'rebooking', 'move' -> 'moving')."""
    w = word.lower()
    return len(w) > 2 and any(is_word(f) for f in (w + "ing", w[:-1] + "ing", w + w[-1] + "ing"))


def bare_verb(text: str, key: str) -> list[str]:
    words = {w.lower() for w in key_parts(key.split(".")[-1])}
    out = []
    for m in _LABEL.finditer(text):
        for link, w in re.findall(r"\b(for|to) ([a-z]+)\b", m.group(1)):
            if w in words and w not in STOP and verb_form(w):
                out.append(f"{link} {w}")
    return out


def lost_head(text: str, key: str) -> list[str]:
    words = [w.lower() for w in key_parts(key.split(".")[-1]) if w.lower() not in STOP and not w.isdigit()]
    content = [w for w in words if w not in HEADS]
    if not content:
        return []
    return [
        m.group(1)
        for m in _LABEL.finditer(text)
        if m.group(1).lower() in HEADS and m.group(1).lower() in words
    ]


def not_owned(text: str) -> list[str]:
    return re.findall(rf"\b[Mm]y ((?:{'|'.join(ROLES)})(?:'s)? [\w-]+)", text)


def bare_noun(text: str, key: str, value: str) -> bool:
    v = value.strip()
    head = [w.lower() for w in key_parts(key.split(".")[-1])][-1:]
    return (
        head != []
        and head[0] in ARTICLE_HEADS
        and v.isalpha()
        and v.islower()
        and counted_noun(v)
        and bare_after_be(text, v)
    )


def defects(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for r in rows:
        out.append({**r, "bare_verb": bare_verb(r["text"], r["key"]), "lost_head": lost_head(r["text"], r["key"]),
                    "not_owned": not_owned(r["text"]), "bare_noun": bare_noun(r["text"], r["key"], r["value"])})  # fmt: skip
    return out


def table(rows: list[dict[str, Any]]) -> str:
    agg: dict[tuple[str, str], int] = defaultdict(int)
    facts: dict[tuple[str, str], set[tuple[str, str, str]]] = defaultdict(set)
    for r in rows:
        for h in (r["half"], "all"):
            agg[("lines", h)] += 1
            for c in CHECKS:
                agg[(c, h)] += bool(r[c])
                if r[c]:
                    facts[(c, h)].add((r["domain"], r["id"], r["key"]))
    lines = [
        f"{'check':<11} {'dev lines':>10} {'facts':>6} {'test lines':>11} {'facts':>6} {'all lines':>10} {'facts':>6}"
    ]
    for c in ("lines", *CHECKS):
        lines.append(
            f"{c:<11} "
            + " ".join(f"{agg[(c, h)]:>10} {len(facts[(c, h)]):>6}" for h in ("dev", "test", "all"))
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    data = argv[argv.index("--data") + 1] if "--data" in argv else "/work/shared/eva-data"
    rows = defects(run(data))
    print(table(rows))
    show_rows(rows, argv, CHECKS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
