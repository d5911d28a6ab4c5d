"""The goal caller's opening against the reference caller's, per half of the fixed split and domain.

    python benchmarks/caller_opening.py [--data DIR] [--half dev|test|all] [--save now.json]
        [--before then.json] [--rows]

A person on the phone states the reason for the call first, briefly, and gives details when asked.
The caller check grades replies to requests, decisions and endings, not the opening; this measures
it. **The opening** of a conversation is the reference caller's statement of why it calls: its
first line, and when that line names none of its requests ('Hi, I have a few things I need help
with.'), also its first later reply that names one (to 'What do you need help with?', often after
the agent verified it). The caller under test is run over the same reference agent turns (as the
caller check runs it) and its opening is its first line and its reply to that same agent turn: the
window is fixed by the reference, the same for both.

For each opening: **intents** named (the scenario's listed requests, else its goal, each named by a
word that tells it apart from the others, :class:`Intents`), goal **facts** disclosed (the bench's
own matcher, :func:`voxbench.bench.matcher.facts_said`, leaving out what the agent's turn said),
**words** (the bench's normalised tokens) and **sentences**. Per half and domain: the means for
both callers, how many openings of ours name more (fewer) intents than the reference's, and the
precision / recall of the facts ours disclosed against those the reference disclosed in the same
opening (micro: summed over openings). ``two-part`` is the same over the openings that have a
second part (a first line that names no request): there the first line is the scenario's own
starting utterance for both, and the rest is the caller's doing. On those, ``answer`` counts the
facts each caller disclosed in that second part (its reply to the agent's open question) by the
kind of their value (:func:`value_kind`: ``code`` an identifier said letter by letter or digit by
digit, ``date`` a date or clock time, ``number`` a short number, ``text`` words), as means per
opening: how much a person volunteers when first asked what it needs.

The split is ``caller_check_halves.half``. ``--rows`` prints the openings of dev scenarios only;
test is read as aggregates. ``--save`` writes the aggregates (JSON), ``--before`` prints each
figure as before -> now.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.lang import words
from voxbench.bench.matcher import facts_said, goal_facts, words_of
from voxbench.bench.reference import reference_turns
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

DOMAINS = ("airline", "itsm", "medical_hr", "all")
KINDS = ("code", "date", "number", "text")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|\b\d{1,2}\s*(am|pm)\b", re.I)


def value_kind(raw: Any) -> str:
    """The bench's own reading of a value's kind: a date or clock time; a number of at most three
    digits, with a unit or not ('27', '90', '27-inch'); a code (any other value with a digit, or capitals only: 'EMP047163',
    'GGQ76P', '5572'); else text. Independent of the caller's own value kinds."""
    v = str(raw).strip()
    if _DATE.search(v):
        return "date"
    if re.fullmatch(r"\$?\d{1,3}(\.\d+)?([\s_-]*[a-z]+)?", v, re.I):  # '27', '$250', '27-inch'
        return "number"
    if any(c.isdigit() for c in v) or (v.upper() == v and any(c.isalpha() for c in v)):
        return "code"
    return "text"


def fact_kinds(sc: Scenario) -> dict[str, str]:
    """Goal fact key (dotted, as :func:`voxbench.bench.matcher.goal_facts` keys it) -> the
    :func:`value_kind` of its value (a list of scalars: of its first item)."""
    out: dict[str, str] = {}

    def walk(prefix: str, obj: Any) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(obj, list) and any(isinstance(x, (dict, list)) for x in obj):
            for i, v in enumerate(obj):
                walk(f"{prefix}.{i}", v)
        else:
            items = obj if isinstance(obj, list) else [obj]
            if items and not isinstance(items[0], bool) and items[0] is not None:
                out[prefix] = value_kind(items[0])

    walk("", sc.user_goal.information_required)
    return out


FRAMING = frozenset(
    [
        "get",
        "getting",
        "need",
        "needs",
        "want",
        "request",
        "requests",
        "requesting",
        "help",
        "make",
        "also",
        "some",
        "any",
        "new",
        "please",
        "with",
        "from",
        "into",
        "onto",
        "that",
        "this",
        "these",
        "those",
        "have",
        "has",
        "just",
        "now",
    ]
)
"""Words that frame a request ('get', 'need', 'request') and tell none apart from another; with the
bench's option and key filler words (``bench/lang``), left out of the words that name a request."""
_FILLER = FRAMING | frozenset(words("en").option_filler) | frozenset(words("en").key_filler)


def _content(text: str) -> set[str]:
    return {w for w in words_of(text) if (len(w) >= 3 or w.isdigit()) and w not in _FILLER}


def _same(a: str, b: str) -> bool:
    """The same word up to its ending ('replacement' / 'replace', 'swap' / 'swapping')."""
    n = min(len(a), len(b))
    return a == b or (n >= 4 and a[: max(4, n - 1)] == b[: max(4, n - 1)]) or (n >= 5 and a[:5] == b[:5])


class Intents:
    """The caller's requests and the words that name each: a text names a request by one word that
    tells it apart from the others (its content words less those of its other requests: 'parking',
    'Confluence'), or by two of its content words ('my laptop replaced' names 'Get a replacement
    laptop' when another request is about the laptop too)."""

    def __init__(self, intents: list[str]) -> None:
        self.intents = intents
        own = [_content(i) for i in intents]
        self.content = own
        self.words: list[set[str]] = []
        for i, w in enumerate(own):
            rest = set().union(*(o for j, o in enumerate(own) if j != i))
            self.words.append({x for x in w if not any(_same(x, y) for y in rest)})

    @classmethod
    def of(cls, scenario: Scenario) -> Intents:
        listed = [str(i.get("intent", "")) for i in (scenario.scenario_context.get("intents") or [])
                  if isinstance(i, dict) and i.get("intent")]  # fmt: skip
        return cls(listed or [scenario.user_goal.high_level_user_goal])

    def named(self, text: str) -> list[int]:
        """The requests a text names (see the class docstring)."""
        said = set(words_of(text))

        def hits(ws: set[str]) -> int:
            return sum(any(_same(w, s) for s in said) for w in ws)

        return [i for i, (ws, cs) in enumerate(zip(self.words, self.content, strict=True))
                if hits(ws) >= 1 or (cs and hits(cs) >= min(2, len(cs)))]  # fmt: skip


@dataclass
class Opening:
    """One caller's opening: its text, and what the bench reads in it."""

    text: str = ""
    intents: int = 0
    facts: list[str] = field(default_factory=list)
    words: int = 0
    sentences: int = 0

    @classmethod
    def of(cls, parts: list[tuple[str, str]], names: Intents, facts: Any) -> Opening:
        """``parts``: (caller line, agent turn it answers, '' for none)."""
        text = " ".join(p for p, _ in parts if p)
        said = [k for p, a in parts for k in facts_said(p, facts, a)]
        return cls(text, len(names.named(text)), list(dict.fromkeys(said)), len(words_of(text)),
                   len(sentences_of(text)))  # fmt: skip


@dataclass
class Pair:
    domain: str
    scenario_id: str
    reference: Opening
    ours: Opening
    two_part: bool
    answer: dict[str, list[str]] = field(default_factory=dict)
    """'ref' / 'ours' -> the kinds of the facts disclosed in the second part (two-part only)."""


def opening_pair(domain: str, sc: Scenario) -> Pair:
    """The reference's opening and the goal caller's over the same agent turns (module docstring)."""
    names, facts = Intents.of(sc), goal_facts(sc.user_goal.information_required)
    first, turns = reference_turns(sc)
    caller = GoalTextCaller(sc)
    ref_parts: list[tuple[str, str]] = []
    our_parts: list[tuple[str, str]] = []
    if first is not None:
        ref_parts.append((first, ""))
        our_parts.append((caller.open().text, ""))
    for agent, ref in turns:
        reply = caller.respond(agent)
        if not ref_parts:  # the agent spoke first: the first line answers its greeting
            ref_parts.append((ref, agent))
            our_parts.append((reply.text, agent))
            if names.named(ref):
                break
            continue
        if names.named(ref_parts[0][0]):
            break
        if ref and names.named(ref):
            ref_parts.append((ref, agent))
            our_parts.append((reply.text, agent))
            break
        if reply.ends_call:
            break
    kinds, answer = fact_kinds(sc), {}
    if len(ref_parts) > 1:
        for who, (text, agent) in (("ref", ref_parts[-1]), ("ours", our_parts[-1])):
            answer[who] = [kinds.get(k, "text") for k in facts_said(text, facts, agent)]
    return Pair(domain, sc.id, Opening.of(ref_parts, names, facts), Opening.of(our_parts, names, facts),
                len(ref_parts) > 1, answer)  # fmt: skip


def aggregate(pairs: list[Pair]) -> dict[str, dict[str, float]]:
    """'half/domain[/two-part]' -> summed counts (see :func:`row`)."""
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for p in pairs:
        h = half(p.domain, p.scenario_id)
        keys = [f"{h}/{p.domain}", f"{h}/all"]
        keys += [f"{k}/two-part" for k in keys] if p.two_part else []
        tp = len(set(p.ours.facts) & set(p.reference.facts))
        for k in keys:
            t = out[k]
            t["n"] += 1
            for who, o in (("ref", p.reference), ("ours", p.ours)):
                t[f"{who}_intents"] += o.intents
                t[f"{who}_facts"] += len(o.facts)
                t[f"{who}_words"] += o.words
                t[f"{who}_sentences"] += o.sentences
            t["more_intents"] += p.ours.intents > p.reference.intents
            t["fewer_intents"] += p.ours.intents < p.reference.intents
            t["facts_both"] += tp
            for who, ks in p.answer.items():
                for kd in ks:
                    t[f"{who}_answer_{kd}"] += 1
    return {k: dict(v) for k, v in out.items()}


def row(t: dict[str, float], b: dict[str, float] | None = None) -> str:
    """One line of figures (``b``: the same before, printed as before -> now)."""

    def mean(k: str, s: dict[str, float]) -> str:
        return f"{s.get(k, 0) / s['n']:.2f}" if s.get("n") else "-"

    def pct(n: str, d: str, s: dict[str, float]) -> str:
        return f"{100 * s.get(n, 0) / s[d]:.0f}%" if s.get(d) else "-"

    def fig(f: Any, *a: str) -> str:
        return f"{f(*a, b)} -> {f(*a, t)}" if b else f(*a, t)

    return (f"n {int(t.get('n', 0))}  intents ref {mean('ref_intents', t)} ours {fig(mean, 'ours_intents')}"
            f" (more {fig(lambda s: str(int(s.get('more_intents', 0))))}"
            f", fewer {fig(lambda s: str(int(s.get('fewer_intents', 0))))})"
            f"  facts ref {mean('ref_facts', t)} ours {fig(mean, 'ours_facts')}"
            f"  P {fig(pct, 'facts_both', 'ours_facts')} R {fig(pct, 'facts_both', 'ref_facts')}"
            f"  words ref {mean('ref_words', t)} ours {fig(mean, 'ours_words')}"
            f"  sentences ref {mean('ref_sentences', t)} ours {fig(mean, 'ours_sentences')}"
            + ("  answer " + " ".join(f"{k} ref {mean(f'ref_answer_{k}', t)} ours {fig(mean, f'ours_answer_{k}')}"
                                      for k in KINDS) if any(k.startswith("ref_answer") or k.startswith("ours_answer")
                                                             for k in t) else ""))  # fmt: skip


def _save(path: str, agg: dict[str, dict[str, float]]) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(agg, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/work/shared/eva-data")
    ap.add_argument("--save", help="write the aggregates here (JSON)")
    ap.add_argument("--before", help="aggregates saved before: print before -> now")
    ap.add_argument("--rows", action="store_true", help="print the openings of dev scenarios")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="all", help="the halves to print")
    args = ap.parse_args()
    pairs = [opening_pair(d, sc) for d, sc in resolved_scenarios(args.data)]
    agg = aggregate(pairs)
    before: dict[str, dict[str, float]] = {}
    if args.before:
        with open(args.before, encoding="utf-8") as f:
            before = json.load(f)
    for h in ("dev", "test") if args.half == "all" else (args.half,):
        for d in DOMAINS:
            for part in ("", "/two-part"):
                k = f"{h}/{d}{part}"
                if k in agg:
                    print(f"{h:4} {d:10} {part[1:] or 'all':8} {row(agg[k], before.get(k))}")
    if args.rows:
        for p in pairs:
            if half(p.domain, p.scenario_id) == "dev" and p.two_part:
                print(f"== {p.domain}/{p.scenario_id}\n  reference ({p.reference.intents} intents, "
                      f"{p.reference.facts}): {p.reference.text}\n  ours ({p.ours.intents} intents, "
                      f"{p.ours.facts}): {p.ours.text}\n  answer kinds: {p.answer}")  # fmt: skip
    if args.save:
        _save(args.save, agg)


if __name__ == "__main__":
    main()
