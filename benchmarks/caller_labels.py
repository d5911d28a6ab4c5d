"""Does the goal caller read its facts' keys out as labels where a person would not?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_labels.py --data /work/shared/eva-data \
        [--rows] [--domain D] [--limit N]

The goal caller is run over each scenario's reference conversation exactly as ``voxbench caller
check`` runs it (:func:`voxbench.bench.caller_check.check_scenario`, the caller built by
:class:`voxbench.bench.callers.GoalRules`), and each reply is read with the bench's own reading
(:mod:`voxbench.bench.matcher`, :mod:`voxbench.bench.reference`), never the caller's. For each goal
fact a reply discloses (the bench's ``disclosed_facts``), the sentence that says its value is
looked at with the value's words taken out: the *label* is said when a word of the fact's key
(:func:`.reference.key_words`; a word matches itself, itself with an ending, or a word sharing
its first five letters) is in it that is in neither the agent's turn nor the reference reply (a
label the agent or the reference used is the conversation's own word, not the caller's). Counted
per half (dev/test: the fixed split of ``caller_check_halves.half``):

* **disclosures**: (reply, fact) pairs; **labelled**: those whose label is said so;
* by the value's **kind** (``speech.value_kind``: date, time, money, code, name, number, text...);
* by the label's **shape**, the first that holds: ``free_text`` (a value of five words or more: a
  description, a reason), ``value_has_head`` (the value holds a word of the key: 'initial
  verification' for ``verification_action``), ``meta`` (the key's last word is a meta-word that
  names no thing: description, name, action, type, reason, details, preference...), ``noun_phrase``
  (a word value of one to four words that answers the question itself: 'Executive Garage'),
  ``plain`` (any other: an identifier, a date, an amount under its field's name);
* ``same_kind``: of the labelled, those in a reply that discloses two or more facts of one kind (a
  start and an end date): the label tells them apart, and is kept by design; a prose value (five
  words or more), which the bench grades not, counts as disclosed when the reply says its first four
  words in a row; ``ref. gave too``: of
  the labelled, those the reference reply disclosed as well (it said the value without the label);
* **awkward frames** (per reply): ``take_gerund`` ("I'll take using ..."), ``measure_singular``
  ("is 14 inch": a number above one, a space, a unit word in the singular; "a 90-day trial" is
  the unit as an adjective, not counted), ``label_is_clause``
  ("My issue description is VPN keeps ...": a label framed over a value of five words or more).

``--rows`` prints the labelled disclosures of DEV scenarios only; test is read as the table only.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from caller_check_halves import half

from voxbench.bench.caller_check import check_scenario, resolved_scenarios
from voxbench.bench.callers import GoalRules
from voxbench.bench.matcher import Said, Value, words_of
from voxbench.bench.reference import key_words
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.speech import key_parts, value_kind
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

META = frozenset({
    "description", "name", "action", "type", "reason", "details", "detail", "preference", "method",
    "option", "category", "status", "level", "mode", "choice", "kind", "info", "information", "summary",
    "request", "value", "setting", "selection", "plan", "format",
})  # fmt: skip
"""Key heads that name what kind of answer a fact is, not what it is about."""

UNITS = frozenset(
    {"inch", "foot", "meter", "pound", "hour", "day", "week", "month", "year", "minute", "mile"}
)
SHAPES = ("free_text", "value_has_head", "meta", "noun_phrase", "plain")
FRAMES = {
    "take_gerund": re.compile(r"\bI(?:'ll| will) take \w+ing\b", re.I),
    "measure_singular": re.compile(rf"\b(?:[2-9]|\d\d+)(?:\.\d+)? (?:{'|'.join(UNITS)})\b", re.I),
}


def _same(w: str, k: str) -> bool:
    """The bench's word match (:func:`.reference.names_fact`): equal, an ending, or five letters."""
    return w == k or (len(k) >= 4 and w.startswith(k)) or (len(k) >= 5 and w[:5] == k[:5])


def _has(words: Iterable[str], k: str) -> bool:
    return any(_same(w, k) for w in words)


def shape(key: str, value: object) -> str:
    """The label's shape (module docstring), from the key and the value only."""
    vw = words_of(str(value))
    kws = key_words(key.split(".")[-1]) or key_words(key)
    kind = value_kind(value, key_parts(key))
    if len(vw) >= 5 and kind in ("text", "name"):
        return "free_text"
    if any(_has(vw, k) for k in kws):
        return "value_has_head"
    if kws and kws[-1] in META:
        return "meta"
    if vw and all(w.isalpha() for w in vw) and kind in ("text", "name"):
        return "noun_phrase"
    return "plain"


def _prose(raw: object) -> Value | None:
    """A value of five words or more looked for by its first four (the bench grades no prose)."""
    ws = words_of(str(raw))
    return Value((tuple(ws[:4]),), ()) if len(ws) >= 5 else None


def _sentence_of(reply: str, value: Value) -> tuple[str, list[str]] | None:
    """The reply's sentence that says ``value`` and its words with the value's own taken out."""
    for s in sentences_of(reply):
        said = Said.of(s)
        if not value.said_in(said):
            continue
        rest = list(said.words)
        for form in value.forms:
            n = len(form)
            at = next((i for i in range(len(rest) - n + 1) if tuple(rest[i : i + n]) == form), None)
            if at is not None:
                del rest[at : at + n]
                break
        return s, rest
    return None


def label_words(reply: str, agent: str, ref: str, key: str, raw: object) -> list[str]:
    """The words of ``key`` said around its value in ``reply`` that neither ``agent`` nor ``ref`` said."""
    v = (_prose(raw) if shape(key, raw) == "free_text" else None) or Value.of(str(raw))
    if v is None:
        return []
    found = _sentence_of(reply, v)
    if found is None:
        return []
    _, rest = found
    heard = set(words_of(agent)) | set(words_of(ref))
    value_words = set(words_of(str(raw)))
    kws = [k for k in key_words(key) if len(k) > 2]
    return [k for k in kws if _has(rest, k) and not _has(heard, k) and not _has(value_words, k)]


def scenario_counts(domain: str, sc: Scenario, rows: list[str] | None) -> Counter[str]:
    res = check_scenario(domain, sc, GoalRules().make(domain, sc))
    book = {f.key: f.value for f in goal_facts(sc.user_goal.information_required)}
    c: Counter[str] = Counter()
    for row in res.rows:
        for name, pat in FRAMES.items():
            c[f"frame:{name}"] += bool(pat.search(row.reply))
        prose = [k for k, v in book.items() if _prose(v) and shape(k, v) == "free_text"
                 and (p := _prose(v)) is not None and p.said_in(Said.of(row.reply))]  # fmt: skip
        disclosed = [k for k in row.disclosed_facts if k in book and k not in prose] + prose
        kinds = Counter(value_kind(book[k], key_parts(k)) for k in disclosed)
        c["replies"] += 1
        c["replies_disclosing"] += bool(disclosed)
        for k in disclosed:
            raw = book[k]
            kind, shp = value_kind(raw, key_parts(k)), shape(k, raw)
            c["disclosures"] += 1
            c[f"n_kind:{kind}"] += 1
            c[f"n_shape:{shp}"] += 1
            said = label_words(row.reply, row.agent, row.reference, k, raw)
            if not said:
                continue
            c["labelled"] += 1
            c[f"kind:{kind}"] += 1
            c[f"shape:{shp}"] += 1
            c["same_kind"] += kinds[kind] >= 2
            c["ref_gave"] += k in row.expected_facts
            if shp == "free_text":
                c["frame:label_is_clause"] += 1
            if rows is not None:
                flat = [" / ".join(t.split("\n")) for t in (row.agent, row.reference, row.reply)]
                tags = (
                    f"{kind}, {shp}"
                    + (", same-kind" if kinds[kind] >= 2 else "")
                    + (", ref. gave" if k in row.expected_facts else "")
                )
                rows.append(f"== {domain}/{sc.id} turn {row.turn} [{k}: {tags}] words {said}\n"
                            f"  agent: {flat[0]}\n  reference: {flat[1]}\n  caller: {flat[2]}")  # fmt: skip
    return c


def _pct(n: int, d: int) -> str:
    return f"{n:4d}/{d:<4d} {100 * n / d:5.1f} %" if d else f"{n:4d}/{d:<4d}    -  "


def table(counts: dict[str, Counter[str]]) -> None:
    halves = [h for h in ("dev", "test") if h in counts]
    print(f"{'':28}" + "".join(f"{h:>20}" for h in halves))

    def line(name: str, n: str, d: str) -> None:
        print(f"{name:28}" + "".join(f"{_pct(counts[h][n], counts[h][d]):>20}" for h in halves))

    line("replies disclosing", "replies_disclosing", "replies")
    line("labelled disclosures", "labelled", "disclosures")
    line("  of them same-kind reply", "same_kind", "labelled")
    line("  of them the ref. gave too", "ref_gave", "labelled")
    kinds = sorted({k.split(":", 1)[1] for h in halves for k in counts[h] if k.startswith("n_kind:")})
    for kind in kinds:
        line(f"  kind {kind}", f"kind:{kind}", f"n_kind:{kind}")
    for shp in SHAPES:
        line(f"  shape {shp}", f"shape:{shp}", f"n_shape:{shp}")
    for name in [*FRAMES, "label_is_clause"]:
        line(f"frame {name}", f"frame:{name}", "replies")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--domain", action="append")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--rows", action="store_true", help="print the labelled disclosures of dev scenarios")
    ap.add_argument("--dev-only", action="store_true", help="run and print the dev half only")
    args = ap.parse_args(argv)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    rows: list[str] = []
    items: list[Any] = resolved_scenarios(args.data, args.domain)
    if args.limit:
        items = items[: args.limit]
    for domain, sc in items:
        h = half(domain, sc.id)
        if args.dev_only and h != "dev":
            continue
        counts[h] += scenario_counts(domain, sc, rows if args.rows and h == "dev" else None)
    table(counts)
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
