"""Does the goal caller's understanding of a request survive the wording of an agent it has never met?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_paraphrase.py --data /work/shared/eva-data \
        [--rows] [--class C] [--domain D] [--limit N] [--out report.json]

Agents word the same request many ways; the caller's rules saw only the reference agents'. Each
reference agent turn of the bench that asks for facts (the bench's :func:`~voxbench.bench.reference.asks`,
and the reference caller's reply discloses a goal fact by the bench's matcher) is rewritten by each
class of :data:`CLASSES`: rules that change the wording and not what is asked, stated once per class,
the choice among alternatives seeded by domain/scenario/turn/class (deterministic). Where a class
changes the text, a copy of the caller in the state the written turns left it in hears the variant,
and its reply is compared with its reply to the written turn (structure of ``caller_asr_forms.py``):

* **facts changed**: the goal facts the reply discloses (the bench's own matcher,
  :func:`voxbench.bench.matcher.facts_said`, not the caller's) differ: **lost** (said to the written
  turn, not to the variant) and **extra** (the other way round);
* **act changed**: kind, yes/no/option choice or whether it ends the call differ.

The classes:

* ``forms``: a request sentence 'LEAD your X[ so/to/for ...]' re-said with another request form
  ("Could you please provide your X?", "What's your X?", "I'll need your X.", "Can I get your X?",
  "And your X?", "X, please.", "Go ahead with your X.");
* ``synonyms``: a fact's name said by a common synonym a real agent uses (:data:`SYNONYMS`: bench
  data, never shared with the caller, so the bench does not grade the caller with its own words);
* ``politeness``: a leading filler ("Great, thanks!", "Perfect.", "Sure thing.") removed, or one added;
* ``split_join``: "your X and your Y?" split into two sentences, or two adjacent requests joined;
* ``lead_in``: the first request in a known form opened by a purpose clause (:data:`LEAD_INS`: "For
  verification purposes, could you ...");
* ``explained``: a turn with a request in a known form after two sentences explaining why it asks
  (:data:`EXPLANATIONS`).

``identity`` (no rewrite) checks that a copied caller replies as the caller does: its counts must
be 0. ``--rows`` prints the changed rows of DEV scenarios only; test is read as aggregates.
"""

from __future__ import annotations

import random
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import turn_variants

from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.reference import asks
from voxbench.records.voice import split_sentences

SYNONYMS: list[tuple[str, ...]] = [
    ("last name", "surname", "family name"),
    ("first name", "given name"),
    ("date of birth", "DOB", "birthday", "birth date"),
    ("phone number", "mobile number", "contact number", "callback number"),
    ("confirmation number", "booking reference", "record locator", "confirmation code"),
    ("confirmation code", "booking reference", "record locator", "confirmation number"),
    ("employee ID", "staff ID", "employee number"),
    ("email address", "e-mail address", "email"),
    ("zip code", "postal code", "ZIP"),
    ("member ID", "membership number", "member number"),
    ("policy number", "policy ID"),
    ("account number", "account ID"),
    ("ticket number", "case number", "incident number"),
    ("license number", "licence number"),
    ("address", "mailing address"),
    ("reason", "justification"),
]
"""Each row: phrases a real agent uses for the same fact name (bench data, not the caller's)."""

FILLERS = ["Great, thanks!", "Perfect.", "Sure thing.", "Got it.", "Thank you.", "Okay."]
_FILLER = re.compile(
    r"^(?:(?:great|perfect|sure thing|got it|thank you|thanks|okay|ok|alright|all right|wonderful|excellent)"
    r"(?:,? (?:thanks|thank you))?[.!,]\s+)+(?=[A-Z])",
    re.I,
)

_LEADS = (
    r"(?:could|can|would) you (?:please )?(?:provide|give|tell|share|confirm|send|read)(?: me| us)?(?: with)?"
    r"|(?:please )?(?:provide|give me|tell me|share|confirm|read me)"
    r"|what(?:'s|’s| is| was| are)"
    r"|(?:i'll|i’ll|i will|i'd|i’d|i would|i) (?:also |just |first )?need"
    r"|(?:can|could|may) i (?:please )?(?:get|have)"
    r"|and"
    r"|go ahead with"
)
_W = r"[\w'’ ,-]"
_REQ = re.compile(
    rf"^(?P<pre>(?:[A-Z][\w ]{{0,20}}, )?)(?P<lead>{_LEADS}) (?P<det>your|the) (?P<x>{_W}{{2,90}}?)"
    r"(?P<tail> (?:so|to|for|in order to|before|on file|on the) [^?.!]*)?(?P<end>[?.!])$",
    re.I,
)
_CLAUSE_X = re.compile(r"\b(you|you[’']d|you[’']re|I|I[’']ll|we)\b")
"""An object with a clause of its own ('the two requests you need help with') is not re-said."""
_PLEASE = re.compile(r"^(?P<x>[A-Za-z][\w'’ -]{2,30}), please(?P<end>[?.!])$")
FORMS = [
    "Could you please provide {det} {x}{tail}?",
    "What's {det} {x}{tail}?",
    "I'll need {det} {x}{tail}.",
    "Can I get {det} {x}{tail}?",
    "And {det} {x}?",
    "{X}, please.",
    "Go ahead with {det} {x}{tail}.",
]
"""Request forms; 'And your X?' and 'X, please.' drop a trailing purpose clause ('so I can pull up
your booking'), as people do; a tail listing more items is part of X and is kept."""

_HEADS = r"(?:name|number|id|ID|code|date|address|email|time|reference|locator|birth|zip|phone)"
_AND = re.compile(
    rf"^(?P<pre>.*?\b(?P<det>your|the) )(?P<a>[\w'’ -]*?\b{_HEADS}),? and (?:(?P<det2>your|the) )?"
    rf"(?P<b>[\w'’ -]*?\b{_HEADS})(?P<tail> (?:so|to|for|on) [^?.!]*)?(?P<end>[?.!])$",
    re.I,
)


_CLAUSE = re.compile(r"\b(what|which|is|are|do|does|please|need|would|can|could)\b", re.I)


def by_sentence(text: str, f: Callable[[str], str]) -> str:
    """``f`` applied to each sentence, the text between sentences kept as it was."""
    parts = re.split(r"(?<=[.?!])(\s+)", text)
    return "".join(p if i % 2 else f(p) for i, p in enumerate(parts))


def _form_of(s: str) -> tuple[str, str, str, str, str] | None:
    """(prefix, determiner, X, purpose clause, lead) of a request sentence in one of the forms, or None."""
    m = _REQ.match(s)
    if m and len(m["x"].split()) <= 14 and not _CLAUSE_X.search(m["x"]):
        x, tail = re.sub(r",? please$", "", m["x"], flags=re.I), m["tail"] or ""
        if re.search(r",| and ", tail):  # more items after 'for ...': part of what is asked
            x, tail = x + tail, ""
        return m["pre"], m["det"].lower(), x, tail, m["lead"].lower()
    m = _PLEASE.match(s)
    if m and len(m["x"].split()) <= 4 and re.search(rf"\b{_HEADS}\b", m["x"], re.I):
        return "", "your", re.sub(r"^your ", "", m["x"], flags=re.I), "", "please"
    return None


def _say(form: str, pre: str, det: str, x: str, tail: str) -> str:
    if form.startswith(("And", "{X}")):
        tail = ""
    out = form.format(det=det, x=x, X=x[:1].upper() + x[1:], tail=tail)
    if pre:
        out = pre + (out if out.startswith(("I'll", "I ")) else out[:1].lower() + out[1:])
    return out


def forms(text: str, rng: random.Random) -> str:
    def one(s: str) -> str:
        got = _form_of(s)
        if got is None:
            return s
        pre, det, x, tail, _lead = got
        choices = [f for f in FORMS if _say(f, pre, det, x, tail) != s and not (pre and f.startswith("And"))]
        return _say(rng.choice(choices), pre, det, x, tail)

    return by_sentence(text, one)


def synonyms(text: str, rng: random.Random) -> str:
    for row in SYNONYMS:
        m = re.search(rf"\b{re.escape(row[0])}\b", text, re.I)
        if m:
            alt = rng.choice(row[1:])
            return text[: m.start()] + alt + text[m.end() :]
    return text


def politeness(text: str, rng: random.Random) -> str:
    m = _FILLER.match(text)
    if m:
        return text[m.end() :]
    return f"{rng.choice(FILLERS)} {text}"


def split_join(text: str, rng: random.Random) -> str:
    """The first request 'your A and your B' split in two; else the first two adjacent requests joined."""
    done = [False]

    def split(s: str) -> str:
        m = _AND.match(s)
        if done[0] or not m or len(m["a"].split()) > 5 or len(m["b"].split()) > 5 or _CLAUSE.search(m["b"]):
            return s
        done[0] = True
        # 'your spouse's first name and last name': the second is the spouse's too
        owner = "" if m["det2"] else (o.group(0) if (o := re.match(r"[\w-]+['’]s ", m["a"])) else "")
        det2 = (m["det2"] or m["det"]).lower()
        return f"{m['pre']}{m['a']}{m['tail'] or ''}{m['end']} And {det2} {owner}{m['b']}{m['end']}"

    out = by_sentence(text, split)
    if out != text:
        return out
    parts = re.split(r"(?<=[.?!])(\s+)", text)
    for i in range(0, len(parts) - 2, 2):
        a, b = _form_of(parts[i]), _form_of(parts[i + 2])
        if a and b:
            joined = f"Could you give me {a[1]} {a[2]} and {b[1]} {b[2]}{a[3]}?"
            joined = a[0] + joined[:1].lower() + joined[1:] if a[0] else joined
            return "".join([*parts[:i], joined, *parts[i + 3 :]])
    return text


LEAD_INS = [
    "For verification purposes, ",
    "Just so I can pull up the right record, ",
    "Before we go any further, ",
    "To make sure I have the right account, ",
    "So that I can help you with this, ",
]
EXPLANATIONS = [
    "I can definitely help you with that today. Our policy requires me to verify a few details "
    "before I can look at or change anything, and it only takes a moment.",
    "Thanks for bearing with me. I want to make sure everything is set up correctly on our side, "
    "so I'll go through a couple of quick details with you first.",
]


def lead_in(text: str, rng: random.Random) -> str:
    """The first request sentence in a known form opened by a purpose lead-in ('For verification
    purposes, could you ...'); a sentence that already has a lead is left as it is."""
    done = [False]

    def one(s: str) -> str:
        got = _form_of(s)
        if done[0] or got is None or got[0] or got[4] in ("and", "please"):
            return s
        done[0] = True
        first = s[:1] if s.startswith(("I ", "I'", "I’")) else s[:1].lower()
        return rng.choice(LEAD_INS) + first + s[1:]

    return by_sentence(text, one)


def explained(text: str, rng: random.Random) -> str:
    """A turn whose request comes after a long explanation of why it is asked."""
    if not any(_form_of(s) for s in split_sentences(text)):
        return text
    return f"{rng.choice(EXPLANATIONS)} {text}"


CLASSES: dict[str, tuple[Callable[[str, random.Random], str], str]] = {
    "identity": (lambda t, r: t, "no rewrite: a copied caller replies as the caller does"),
    "forms": (forms, "a request re-said in another request form"),
    "synonyms": (synonyms, "a fact's name said by a common synonym (bench table)"),
    "politeness": (politeness, "a leading filler removed, or one added"),
    "split_join": (split_join, "'your X and your Y?' split in two, or two requests joined"),
    "lead_in": (lead_in, "a request opened by a purpose lead-in ('For verification purposes, ...')"),
    "explained": (explained, "a request after a long explanation of why it is asked"),
}


def variant(cls: str, text: str, seed: str) -> str:
    return CLASSES[cls][0](text, random.Random(f"{seed}/{cls}"))


def _act(act: Any) -> tuple[Any, ...]:
    return act.kind, act.choice, act.ends_call


def run_scenario(
    domain: str, sc: Any, classes: list[str], rows: list[dict[str, Any]]
) -> dict[str, dict[str, int]]:
    """Counts per class over one scenario; the changed rows go to ``rows``."""
    facts = goal_facts(sc.user_goal.information_required)
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def variants(i: int, agent: str, ref: str) -> dict[str, str]:
        if not (ref and asks(agent) and facts_said(ref, facts, agent)):
            return {}
        seed = f"{domain}/{sc.id}/{i + 1}"
        return {c: v for c in classes if (v := variant(c, agent, seed)) != agent or c == "identity"}

    for f in turn_variants.forked_replies(domain, sc, variants):
        written = f.written
        w_facts = set(facts_said(written.text, facts, f.agent))
        for c, (v, heard) in f.heard.items():
            h_facts = set(facts_said(heard.text, facts, f.agent))
            lost, extra = sorted(w_facts - h_facts), sorted(h_facts - w_facts)
            n = counts[c]
            n["turns"] += 1
            n["facts_changed"] += bool(lost or extra)
            n["lost"] += bool(lost)
            n["extra"] += bool(extra)
            n["act_changed"] += _act(heard) != _act(written)
            if lost or extra or _act(heard) != _act(written):
                rows.append({"domain": domain, "scenario": sc.id, "turn": f.turn, "class": c, "agent": f.agent,
                             "variant": v, "written_reply": written.text, "heard_reply": heard.text,
                             "lost": lost, "extra": extra, "written_act": list(_act(written)),
                             "heard_act": list(_act(heard)), "heard_rule": heard.rule})  # fmt: skip
    return counts


def main() -> int:
    args = turn_variants.parser(__doc__.split("\n")[0], "class", "classes").parse_args()
    classes = args.classes or list(CLASSES)
    totals, dev_rows = turn_variants.run(args, classes, run_scenario)
    cols = ("turns", "facts_changed", "lost", "extra", "act_changed")
    turn_variants.report(args, totals, dev_rows, classes, cols, "class")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
