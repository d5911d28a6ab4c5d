"""Which of the facts a request names its question can take, stated once for every fact:

1. a wh-question asks for one kind of value ('Who needs the access?': a person; 'Why ...?': a
   reason; 'When ...?': a date or a time; 'Where ...?': a place): a fact whose value kind and
   key words are of no such kind does not answer it ('It's read only.' to 'Who needs the access?');
2. a field of another person ('your supervisor's NPI', 'a supervising physician NPI', 'the NPI of
   your manager') is not the caller's own fact of that name, unless its key says that person;
3. where the tree says what to answer to the question ("if asked why you need the replacement,
   say ..."; :meth:`.openask.GoalOpenAnswers.told_for`), its answer wins over a fact the question
   names by a synonym or a fallback only ('why' ~ 'justification'), or less closely than the
   tree's X does ('a supervising physician NPI' against 'npi').

The words are data (``fit`` in ``goal/lang/<lang>.json``). A fact named by another request
sentence of the turn that fits it stays asked.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.facts import SYNONYMS, Fact, FactBook, stem
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.openask import OpenAnswer, content
from voxbench.pipelines.caller.goal.requested import named_by_key
from voxbench.pipelines.caller.goal.rules import ASK_TAG, CONTEXT, MOST_WORDS, THIRD_PARTY
from voxbench.pipelines.caller.goal.speech import value_kind
from voxbench.pipelines.caller.goal.turn import Turn

_WH = ("who", "why", "when", "where")
_WH_LEAD = re.compile(
    rf"^\W*(?:(?:{alt('fit', 'wh_lead')})[,.]?\s+)*(?P<wh>{'|'.join(_WH)})\b(?!\s+(?:{alt('fit', 'clause_subject')})\b)",
    re.I,
)
"""A question led by its wh-word; not a clause ('When you say it is down, ...')."""
_OTHER_WH = re.compile(r"\b(?:what|which|how|who|why|when|where)\b", re.I)
_KINDS = {wh: frozenset(phrases("fit", f"wh_kinds_{wh}")) for wh in _WH}
_WORDS = {wh: frozenset(stem(w) for w in phrases("fit", f"wh_words_{wh}")) for wh in _WH}
_OTHERS = frozenset(phrases("fit", "others"))
_OF = ("of", "for")
_BY_WORDS = (
    "name",
    "distinctive",
    MOST_WORDS,
    CONTEXT,
    "in_hand",
    "head",
    "tail",
    "unknown_head",
    "subject",
)
"""The rules that find a fact by the words of a request, and its head or subject fallbacks
(:mod:`.asks`, :mod:`.fallbacks`): what the tree's own answer may win over."""


def _stems(f: Fact) -> set[str]:
    return {stem(w) for w in f.words}


def wh_misfit(sentence: str, f: Fact) -> bool:
    """A question led by one wh-word (no other in it) that the fact's value cannot answer."""
    m = _WH_LEAD.match(sentence)
    if m is None or _OTHER_WH.search(sentence[m.end() :]):
        return False
    wh = m.group("wh").lower()
    return value_kind(f.value, f.words) not in _KINDS[wh] and not _stems(f) & _WORDS[wh]


def other_owner(sentence: str, f: Fact) -> bool:
    """The request names the field as another person's, wherever it names it. A run of the fact's
    words in a row is one mention ('the employee ID of your manager'): another's with a person word
    in the three words before the run in the same item of a list ('manager's email', 'supervising
    physician NPI'; an item begins at a comma or a determiner) or 'of'/'for' and a person word right
    after it ('the NPI of your supervisor'), and the fact's key does not name that person. 'your
    last name, and your mother's maiden name' names the caller's own last name too: not another's."""
    if set(f.words) & _OTHERS or any(set(SYNONYMS.get(w, ())) & _OTHERS for w in f.words):
        return False
    text = re.sub(r"'s\b|s'", "", sentence.lower())
    items = [re.findall(r"[a-z]+", x) for x in _ITEM_START.split(text)]
    toks = [t for it in items for t in it]
    own, found, n = _stems(f), [], 0
    for it in items:
        mine = [stem(tok) in own and tok not in _OF for tok in it]
        for i in range(len(it)):
            if not mine[i] or (i and mine[i - 1]):
                continue  # not a fact word, or inside a run
            e = n + next((k for k in range(i, len(it)) if not mine[k]), len(it)) - 1  # the run's end
            after = toks[e + 1 : e + 2] and toks[e + 1] in _OF and set(toks[e + 2 : e + 5]) & _OTHERS
            found.append(bool(set(it[max(0, i - 3) : i]) & _OTHERS or after))
        n += len(it)
    return bool(found) and all(found)


_ITEM_START = re.compile(rf",|;|\b(?=(?:{alt('lists', 'determiner')})\b)", re.I)
"""Where an item of a list begins: a comma, or a determiner ('your last name, and your mother's ...')."""


def fitting(t: Turn, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """``asked`` without the facts that every request sentence naming them cannot take (1, 2)."""
    bad = [s for s in t.requests if _WH_LEAD.match(s) or set(re.findall(r"[a-z]+", s.lower())) & _OTHERS]
    if not bad or not asked:
        return asked
    naming = {s: {k for k, _ in asked_facts(s, book)} for s in t.requests}
    out = {}
    for k, rule in asked.items():
        f = book.get(k)
        by = [s for s, ks in naming.items() if k in ks]
        misfit = f is not None and all(s in bad and (wh_misfit(s, f) or other_owner(s, f)) for s in by)
        if not (by and misfit) or rule.startswith(THIRD_PARTY):
            out[k] = rule
    return out


def told_over(heard: Heard, book: FactBook, told: OpenAnswer) -> list[str]:
    """The asked facts the tree's own answer to the question wins over (3): those the question names
    only by words of X (or its wh-word; by a key word or a synonym's: 'why' ~ 'justification'),
    and by no more than a synonym, or less closely than X. A fact named by words X does not say is
    another part of the question ('What leave category, and what are the start and end dates?')."""
    if heard.has("options") or heard.options:
        return []  # 'What next: the room booking, or your access?': a choice (:mod:`.choose`)
    q = heard.question
    said = content(q)
    rules = dict(r.split(":", 2)[1:] for r in heard.rules if r.startswith(ASK_TAG) and r.count(":") >= 2)
    wh = {w for w in _WH if re.search(rf"\b{w}\b", q, re.I)}
    out = []
    for k in heard.asked:
        f = book.get(k)
        if f is None or not rules.get(k, "").startswith(_BY_WORDS):
            continue  # asked by a rule that reads more than words ('which floor next?': the backup)
        key = content(" ".join(f.words) + " " + re.sub(r"[._]", " ", f.key))  # the key as written too
        named = _named(f, q, said) & (key | _syn_words(f))
        if not named or not named <= told.about | wh:
            continue  # named by words X does not say: another part of the question ('and the dates')
        if not named_by_key(book, k, q) or (told.about & said) - key:
            out.append(k)
    return out


def answers_x(heard: Heard, book: FactBook, told: OpenAnswer) -> bool:
    """A fact still asked is named by every word of X: it answers what the tree's line does
    ('What leave category ...?' and 'leave_category'), which is not said twice."""
    keys = [content(re.sub(r"[._]", " ", k)) for k in heard.asked if book.get(k) is not None]
    return bool(told.about) and any(told.about <= key for key in keys)


def _syn_words(f: Fact) -> set[str]:
    """The words of the fact's key words' synonyms ('justification': 'reason', 'why', ...)."""
    syn = [x for w in f.words for x in SYNONYMS.get(w, ())]
    return set(content(" ".join(syn))) | {w for x in syn for w in x.split()}


def _named(f: Fact, q: str, said: frozenset[str]) -> set[str]:
    """The words by which the question names the fact: its key's words it says, and the words of
    its synonyms it says ('why' for 'justification', 'operating system' for 'os')."""
    syn = [x for w in f.words for x in SYNONYMS.get(w, ())]
    phrases_said = [x for x in syn if re.search(rf"\b{re.escape(x)}\b", q, re.I)]
    return set(said) | set(content(" ".join(phrases_said))) | {w for x in phrases_said for w in x.split()}
