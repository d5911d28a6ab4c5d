"""The decision tree, read once: checkable criteria, scripted lines, transfer stance, what fixes the issue.

EVA writes a caller's decision tree as prose ("departs LAX before 2:00 PM", "fee under $80",
"make ONE attempt to push back by saying: \"...\"", "If the agent offers to transfer you to a
live agent, you must decline"). :func:`read_tree` pulls out the parts a rule can check
without understanding the prose: time and money limits with what they apply to (departure,
arrival, cost), "direct" requirements, the quoted lines the caller is told to say and the
condition before each (quoted in any style: :mod:`voxbench.spoken.quotes`), whether it should accept a transfer, and the words of the steps
that fix its problem. What it cannot read it leaves alone: the policy then falls back to
generic, content-free behaviour (confirm, ask once more, end).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from voxbench.pipelines.caller.goal.facts import stem
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.treeasks import TreeAsk, tree_asks
from voxbench.spoken import money, parse_time_value, runs, sentences_of, times, tokens
from voxbench.spoken.quotes import double_quoted

Subject = Literal["depart", "arrive", "any"]
Op = Literal["lt", "le", "gt", "ge"]


@dataclass(frozen=True)
class Limit:
    """A checkable must-have: a time or an amount compared with a bound."""

    what: Literal["time", "money"]
    op: Op
    bound: float
    subject: Subject
    source: str

    def ok(self, x: float) -> bool:
        return {"lt": x < self.bound, "le": x <= self.bound, "gt": x > self.bound, "ge": x >= self.bound}[
            self.op
        ]


@dataclass(frozen=True)
class Scripted:
    """A line the tree tells the caller to say, and the condition written before it."""

    condition: str
    line: str
    index: int


@dataclass
class TreeRules:
    limits: list[Limit] = field(default_factory=list)
    direct_only: bool = False
    scripted: list[Scripted] = field(default_factory=list)
    accept_transfer: bool = False
    fixing_words: set[str] = field(default_factory=set)
    not_fixing_words: set[str] = field(default_factory=set)
    prefer: Literal["earliest", "latest", "cheapest", ""] = ""
    pushbacks: int = 0
    """Times the tree tells the caller to push back after a refusal (beyond its scripted lines)."""
    asks: list[TreeAsk] = field(default_factory=list)
    """The questions the tree names for a refusal ('ask whether ...'), with their conditions."""


def _a(name: str) -> str:
    return alt("tree", name)


def _set(name: str) -> frozenset[str]:
    return frozenset(phrases("tree", name))


# The words are data (``goal/lang/<lang>.json``, ``phrases.tree``); the grammar is here.
_TIME = r"(\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)|noon|\d{1,2}:\d{2})"
_BEFORE = re.compile(rf"\b({_a('before')})\s+{_TIME}", re.I)
_AFTER = re.compile(rf"\b({_a('after')})\s+{_TIME}", re.I)
_UNDER = re.compile(rf"\b({_a('under')})\s+\$\s?(\d[\d,]*(?:\.\d+)?)", re.I)
_OR_LESS = re.compile(rf"\$\s?(\d[\d,]*(?:\.\d+)?)\s+(?:{_a('or')}) ({_a('or_less')})", re.I)
_QUOTE = re.compile(r"[\"“]([^\"”]{6,}?)[\"”]")
_DIRECT = re.compile(rf"\b({_a('direct')})\b", re.I)
_FIXES = re.compile(rf"\b({_a('fixes')})\b", re.I)
_NEGATED = re.compile(rf"\b({_a('negated')})\b", re.I)
_WANTS_TRANSFER = re.compile(_a("wants_transfer"), re.I)
_REFUSES_TRANSFER = re.compile(rf"\b({_a('refuses_transfer')})\b", re.I)
_TRANSFER_ALLOWED = re.compile(_a("transfer_allowed"), re.I)
_PREFER: tuple[tuple[Literal["earliest", "latest", "cheapest"], re.Pattern[str]], ...] = (
    ("earliest", re.compile(rf"\b({_a('choose_verb')}) (?:{_a('the')}) {_a('prefer_earliest')}\b")),
    ("latest", re.compile(rf"\b({_a('choose_verb')}) (?:{_a('the')}) {_a('prefer_latest')}\b")),
    ("cheapest", re.compile(rf"\b({_a('choose_verb')}) (?:{_a('the')}) ({_a('prefer_cheapest')})")),
)
_CONNECTION = re.compile(rf"\b({_a('connection')})\b", re.I)
_TOTAL = re.compile(rf"\b(?:{_a('total')}) (?:(?:{_a('total_link')}) )?(?:\$ ?)?(\d+(?:\.\d+)?)\b")
_TOTAL_WORD = phrases("tree", "total")[0]
_DOLLARS_TOTAL = re.compile(rf"(\d+(?:\.\d+)?) (?:{_a('dollars_total')})\b")
_PLUS = re.compile(rf"\b(?:{_a('plus')})\b", re.I)
_PUSHBACK_TIMES = re.compile(
    rf"(?:{_a('pushback_said')})\s+(?:\w+\s+){{0,2}}?({_a('pushback_times')})\b(?:\s+(?:{_a('times')}))?"
)
_ATTEMPTS = re.compile(
    rf"\b({_a('attempt_count')})\s+(?:\w+\s+)?(?:{_a('attempts')})\s+(?:(?:{_a('to')})\s+)?(?:{_a('push')})"
)
_AND_FINAL, _PUSHBACK = _a("and_final"), _a("pushback")
_BEFORE_INCLUSIVE, _AFTER_INCLUSIVE, _UNDER_STRICT = (
    _set("before_inclusive"), _set("after_inclusive"), _set("under_strict")
)  # fmt: skip
_TIME_BOUNDS: tuple[tuple[re.Pattern[str], frozenset[str], Op, Op], ...] = (
    (_BEFORE, _BEFORE_INCLUSIVE, "le", "lt"),  # 'by 2 PM' is inclusive, 'before 2 PM' not
    (_AFTER, _AFTER_INCLUSIVE, "ge", "gt"),
)
"""A time bound's pattern, the words that make it inclusive, and its comparison either way."""
_DEPART, _ARRIVE = phrases("tree", "depart_cue"), phrases("tree", "arrive_cue")
_STOP = _set("stop")
# Words of any troubleshooting talk: they say nothing about *which* step it is.
OUTCOME_WORDS = _set("outcome_words")


def _subject(text: str, at: int) -> Subject:
    before = text[max(0, at - 60) : at].lower()
    d = max(before.rfind(w) for w in _DEPART)
    a = max(before.rfind(w) for w in _ARRIVE)
    if d < 0 and a < 0:
        return "any"
    return "depart" if d > a else "arrive"


def _minutes(t: str) -> float | None:
    t = t.strip().lower()
    if t == "noon":
        return 12 * 60.0
    hm = parse_time_value(t)
    if hm is None:
        got = times(t)
        if not got:
            return None
        hm = got[0]
    return hm[0] * 60.0 + hm[1]


def limits_of(text: str) -> list[Limit]:
    """Time and money limits stated in one criterion."""
    out: list[Limit] = []
    for pattern, inclusive, op_inclusive, op_strict in _TIME_BOUNDS:
        for m in pattern.finditer(text):
            v = _minutes(m.group(2))
            if v is not None:
                op = op_inclusive if m.group(1).lower() in inclusive else op_strict
                out.append(Limit("time", op, v, _subject(text, m.start()), text))
    for m in _UNDER.finditer(text):
        op3: Literal["lt", "le"] = "lt" if m.group(1).lower() in _UNDER_STRICT else "le"
        out.append(Limit("money", op3, float(m.group(2).replace(",", "")), "any", text))
    for m in _OR_LESS.finditer(text):
        out.append(Limit("money", "le", float(m.group(1).replace(",", "")), "any", text))
    return out


def content_words(text: str) -> set[str]:
    """Stemmed words of three letters or more, and short letter-digit names ('I-9' -> 'i9')."""
    short = {r for r in runs(text) if len(r) <= 4 and re.search(r"[a-z]", r) and re.search(r"\d", r)}
    return {stem(t) for t in tokens(text) if t.isalpha() and len(t) > 2 and t not in _STOP} | short


def read_tree(must: list[str], nice: list[str], negotiation: list[str], edge: list[str], escalation: str,
              goal: str, failure: str = "") -> TreeRules:  # fmt: skip
    """Pull checkable rules out of the decision tree's prose (see the module docstring)."""
    rules = TreeRules()
    for c in must:
        rules.limits += limits_of(c)
        if _DIRECT.search(c):
            rules.direct_only = True
    idx = 0
    negotiation, edge = [double_quoted(x) for x in negotiation], [double_quoted(x) for x in edge]
    for text in [*negotiation, *edge, double_quoted(escalation), double_quoted(failure)]:
        for m in _QUOTE.finditer(text):
            line = m.group(1).strip()
            if len(line.split()) < 3:
                continue
            rules.scripted.append(Scripted(text[: m.start()], line, idx))
            idx += 1
    rules.asks = tree_asks([*negotiation, *edge])
    esc = f"{escalation} {goal}"
    wants = _WANTS_TRANSFER.search(esc)
    refuses = _REFUSES_TRANSFER.search(escalation)
    rules.accept_transfer = bool(wants) and not (refuses and not _TRANSFER_ALLOWED.search(escalation))
    for text in [*must, *negotiation, *edge]:
        for s in sentences_of(text):
            if _FIXES.search(s):
                words = content_words(s) - OUTCOME_WORDS
                (rules.not_fixing_words if _NEGATED.search(s) else rules.fixing_words).update(words)
    joined = " ".join(negotiation).lower()
    rules.pushbacks = pushback_count(" ".join([*must, *nice, *negotiation, *edge]))
    rules.prefer = next((kind for kind, pat in _PREFER if pat.search(joined)), "")
    return rules


_COUNT = {
    w: n for n, k in ((1, "one"), (2, "two"), (3, "three")) for w in (*phrases("tree", f"count_{k}"), str(n))
}


def count_said(word: str) -> int:
    """'two' / 'twice' / '2' as a number, by the tree's count words (0: no count it reads)."""
    return _COUNT.get(word.lower(), 0)


def pushback_count(text: str) -> int:
    """'push back firmly 3 times', 'ONE attempt to push back', 'third and final pushback' -> 3, 1, 3."""
    low = text.lower()
    n = 0
    for m in _PUSHBACK_TIMES.finditer(low):
        n = max(n, _COUNT.get(m.group(1), 0))
    for m in _ATTEMPTS.finditer(low):
        n = max(n, _COUNT.get(m.group(1), 0))
    for word, k in (("third", 3), ("second", 2), ("first", 1)):
        if re.search(rf"\b{word}(?: (?:{_AND_FINAL}))? (?:{_PUSHBACK})\b", low):
            n = max(n, k)
            break
    return n


def offer_values(text: str, subject: Subject) -> list[float]:
    """Times (minutes) in an offer that belong to ``subject`` ('departing at one PM' -> depart)."""
    out: list[float] = []
    for s in sentences_of(text):
        low = s.lower()
        for m in re.finditer(r"[^,;]+", low):
            chunk = m.group(0)
            ts = times(chunk)
            if not ts:
                continue
            subj = _subject(low, m.end())
            if subject == "any" or subj in (subject, "any"):
                out += [h * 60.0 + mi for h, mi in ts]
    return out


def offer_cost(text: str) -> float | None:
    """The offer's cost: the amount called total, else the largest amount named."""
    for s in sentences_of(text):  # 'one hundred fifty dollars total', 'a total of $150'
        said = " ".join(tokens(s))
        m = _DOLLARS_TOTAL.search(said) or _TOTAL.search(said)
        if m:
            return float(m.group(1))
    low = text.lower()
    i = low.rfind(_TOTAL_WORD)
    if i >= 0:
        after = money(text[i:])
        if after:
            return after[0]
    best: float | None = None
    for s in sentences_of(text):  # "a seventy-five dollar fee, plus a forty dollar fare difference"
        amounts = money(s)
        if amounts:
            v = sum(amounts) if _PLUS.search(s) else max(amounts)
            best = v if best is None else max(best, v)
    return best


def violations(rules: TreeRules, offer: str) -> list[str]:
    """The must-haves an offer breaks, as the criterion texts (empty: nothing checkable breaks)."""
    bad: list[str] = []
    for lim in rules.limits:
        if lim.what == "money":
            cost = offer_cost(offer)
            if cost is not None and not lim.ok(cost):
                bad.append(lim.source)
        else:
            vals = offer_values(offer, lim.subject)
            if vals and not all(lim.ok(v) for v in vals):
                bad.append(lim.source)
    if rules.direct_only and _CONNECTION.search(offer):
        bad.append("direct")
    return list(dict.fromkeys(bad))


_CURRENT = re.compile(rf"\b({_a('current')})\b", re.I)


def offer_text(text: str, question: str) -> str:
    """The part of an agent turn that is the offer: not what the caller has now ('You're currently
    on the 3 PM'), and, when the question names a time, the sentences with that time."""
    sents = [s for s in sentences_of(text) if not _CURRENT.search(s)]
    qt = times(question)
    if qt:
        sel = [s for s in sents if set(times(s)) & set(qt)]
        return " ".join(sel or [question])
    return " ".join(sents)
