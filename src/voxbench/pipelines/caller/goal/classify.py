"""What did the agent just say? A deterministic classifier of one agent turn, from the caller's side.

An agent turn is usually several things at once ("You're verified. What's the new hire's
employee ID?": a completed step and a request), so :func:`classify` returns every kind it
finds in a :class:`Heard`, with the caller's facts the agent asked for, the facts it read
back (right or wrong), the options it offered and the name of each rule that fired. The
policy decides from that; the record keeps the rule names.

Fact requests are matched by the words of the scenario's own fact keys (see
:mod:`~voxbench.pipelines.caller.goal.facts`), in request sentences only: a question, or an
imperative such as "Please give me your employee I D". Everything else is a handful of
phrase patterns a customer-service agent uses in any domain. An optional
:class:`ChoiceClassifier` (an LLM constrained to a list of choices built from the
scenario) can be asked which fact a request means when the words find none; it is off
unless injected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from voxbench.pipelines.caller.goal.asks import (
    asked_facts,
    head_fallback,
    is_request,
    lacking_fields,
    prefer_fallback,
    prefer_heard_digits,
    subject_fallback,
)
from voxbench.pipelines.caller.goal.cues import (
    ANYTHING_ELSE,
    ANYTHING_ELSE_SAID,
    COMPLETED,
    CONFIRM_Q,
    COURTESY,
    DENIAL,
    GOODBYE,
    HOLD,
    INFO_NOUN,
    NEXT_STEP,
    NOT_DONE,
    OPEN_Q,
    OUTCOME_Q,
    READBACK_CUE,
    REQUEST,
    REQUESTS_Q,
    SENT_CODE,
    STEP,
    TRANSFER_NOW,
    TRANSFER_OFFER,
    WH,
    WILLING_Q,
)
from voxbench.pipelines.caller.goal.facts import FactBook, group_of, stem
from voxbench.pipelines.caller.goal.options import offered_options
from voxbench.pipelines.caller.goal.readback import readbacks
from voxbench.pipelines.caller.goal.results import stated_result
from voxbench.spoken import compact, mentions, sentences_of, tokens

Kind = Literal[
    "request",
    "readback",
    "confirm_question",
    "options",
    "hold",
    "completed",
    "transfer_offer",
    "transfer",
    "goodbye",
    "anything_else",
    "denial",
    "troubleshoot",
    "open_question",
    "willing_question",
    "courtesy",
    "question",
    "statement",
]


class Heard(BaseModel):
    """One agent turn as the caller understood it."""

    kinds: list[Kind] = Field(default_factory=list)
    asked: list[str] = Field(default_factory=list, description="fact keys the agent asked for")
    readback_ok: list[str] = Field(
        default_factory=list, description="fact keys read back as the caller has them"
    )
    readback_wrong: list[str] = Field(
        default_factory=list, description="fact keys read back with another value"
    )
    options: list[str] = Field(default_factory=list)
    earlier_options: list[list[str]] = Field(
        default_factory=list, description="an earlier question's options"
    )
    question: str = ""
    lacking: dict[str, str] = Field(
        default_factory=dict, description="fact key -> a field asked of it that it is not ('flight number')"
    )
    rules: list[str] = Field(default_factory=list)

    def has(self, kind: Kind) -> bool:
        return kind in self.kinds


class ChoiceClassifier(Protocol):
    """A classifier that only picks among given choices (e.g. an LLM under a grammar).

    ``choose`` returns the index of the chosen item of ``choices`` (or ``None``); it never
    produces words for the caller to say.
    """

    name: str

    def choose(self, question: str, choices: list[str]) -> int | None: ...


@dataclass
class Turn:
    """One agent turn cut into the sentences each rule looks at."""

    text: str
    sents: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)

    def asks_beyond_anything_else(self) -> bool:
        """A request other than an "anything else?" said as a statement ('Let me know if there is
        anything else I can do.' is one by :func:`.asks.is_request`, and asks nothing)."""
        return any(not ANYTHING_ELSE_SAID.search(r) for r in self.requests)

    def troubleshooting(self) -> bool:
        """A step to try and a question whether it worked."""
        return any(STEP.search(s) for s in self.sents) and any(OUTCOME_Q.search(s) for s in self.sents)

    @classmethod
    def of(cls, text: str) -> Turn:
        text = text.replace("’", "'").replace("‘", "'")
        sents = sentences_of(text)
        return cls(
            text=text,
            sents=sents,
            questions=[s for s in sents if s.endswith("?")],
            requests=[s for s in sents if is_request(s)],
            statements=[s for s in sents if not s.endswith("?")],
        )


ANYTHING_ELSE_OFFERED = "anything_else_offered"
"""The rule of an "anything else?" said as a statement (the caller thanks rather than says no)."""


def _mark(heard: Heard, kind: Kind, rule: str) -> None:
    heard.kinds.append(kind)
    heard.rules.append(rule)


def _speech_acts(t: Turn, heard: Heard) -> None:
    """Holds, transfers, "anything else?" (asked, or offered in a closing statement), goodbyes,
    completions and refusals."""
    if t.sents and HOLD.match(t.sents[-1]) and not t.questions:
        _mark(heard, "hold", "hold_phrase")
    if TRANSFER_NOW.search(t.text):
        _mark(heard, "transfer", "transfer_now")
    elif any(TRANSFER_OFFER.search(s) for s in t.sents):
        _mark(heard, "transfer_offer", "transfer_offer")
    if any(ANYTHING_ELSE.search(s) for s in t.questions):
        _mark(heard, "anything_else", "anything_else")
    elif (
        not t.questions
        and any(ANYTHING_ELSE_SAID.search(s) for s in t.sents)
        and not t.asks_beyond_anything_else()
    ):  # 'If you have any other questions, feel free to ask.' closing a turn that asks nothing else
        _mark(heard, "anything_else", ANYTHING_ELSE_OFFERED)
    if GOODBYE.search(t.text) and not t.questions:
        _mark(heard, "goodbye", "goodbye")
    if any(COMPLETED.search(s) and not NOT_DONE.search(s) for s in t.statements):
        _mark(heard, "completed", "completed_phrase")
    if any(DENIAL.search(s) for s in t.statements):
        _mark(heard, "denial", "denial_phrase")


def _result_kinds(t: Turn, heard: Heard, book: FactBook, before: str) -> None:
    """A stated result that is the value the caller wants ('The new total number of checked bags is
    1.'), in a turn that asks for nothing (or only "anything else?"): a completion. The action may
    have been announced in the agent's turn ``before`` ('I'll add a checked bag.' / hold / result)."""
    if heard.has("completed") or heard.asked or [q for q in t.questions if not ANYTHING_ELSE.search(q)]:
        return
    if t.asks_beyond_anything_else():
        return
    key = next((k for s in t.statements if (k := stated_result(s, book, f"{before} {t.text}"))), None)
    if key is not None:
        _mark(heard, "completed", f"result_stated:{key}")


def _asked_by_words(t: Turn, book: FactBook, given: set[str], focus: set[str] | None) -> dict[str, str]:
    """Facts the request sentences name: by their key words, then by head noun or subject."""
    asked: dict[str, str] = {}
    steps = t.troubleshooting()
    for s in t.requests:
        if CONFIRM_Q.search(s) and not re.search(r"\b(give|tell|provide|read|spell|what|which)\b", s, re.I):
            continue
        if steps and not _ASKS_VALUE.search(s):
            continue  # 'Please restart the VPN client. Did that fix it?'
        if REQUESTS_Q.search(s):
            continue  # 'What access requests do you need help with?': its requests, not a fact
        open_q = bool(_WHAT_FOR.search(s) or _EITHER_OR.search(s))
        context = " ".join(x for x in t.sents if x != s)
        found = asked_facts(s, book, given=given, context=context, focus=focus)
        if _ONLY_IF_CHANGED.search(s):  # 'I'll need your NPI again only if it's different'
            found = [(k, r) for k, r in found if k not in given]
        if open_q:  # 'What is the new role code?' names a fact; 'What should I check in the record?' does not
            found = [(k, r) for k, r in found if r == "name" and not _EITHER_OR.search(s)]
        for key, rule in found:
            asked.setdefault(key, rule)
        if not OPEN_Q.search(s):
            covered = {h for k, _ in found if (f := book.get(k)) for h in (*f.heads, *f.words[-1:])}
            for key, rule in head_fallback(s, book, given | set(asked), covered, focus):
                asked.setdefault(key, rule)
        if (
            not found
            and not asked
            and not OPEN_Q.search(s)
            and re.search(r"\b(id|number|code|name)\b", s, re.I)
        ):
            live = " ".join(x for x in t.sents if x != s and not COMPLETED.search(x))  # not 'payroll done'
            for key, rule in subject_fallback(s, book, live):
                asked.setdefault(key, rule)
    return asked


_ONLY_IF_CHANGED = re.compile(r"\bonly if\b|\bif (it|that|anything)('s| is| has)? (changed|different)", re.I)
_WHICH_OF = re.compile(r"^(?:and |so )?which (?:of (?:those|these|them)|ones?)\b", re.I)
# A request for a value, not a step to try ('What is the error code?', 'Please tell me ...').
_ASKS_VALUE = re.compile(r"^(what|which|who|where|when|how many)\b|\b(give|tell|provide|read|spell)\b", re.I)
# A yes/no question between two alternatives ('For the Wi-Fi issue, are you unable to connect, or ...?')
_EITHER_OR = re.compile(
    r"^(?:[^,?]*,\s*)?(is|are|was|were|does|do|did|has|have)\b(?![^?]*\b(what|which|how|when|where)\b)[^?]*"
    r",?\s+or\s+(is|are|was|were|does|do|did|has|have|can|it|you|just)\b[^?]*\?$"
    r"|^(?:[^,?]*,\s*)?(is|are|was|were)\s+[\w-]+\s+(a|an|the)\b[^?]*\bor\s+(a|an|the)\b[^?]*\?$",  # 'Is X a B or a C?'
    re.I,
)
# 'What would you like me to check in the employee record?': what to do, not a value
_WHAT_FOR = re.compile(
    r"\bwhat (would|do) you (like|want|need) (me to )?(check|do|look|help|know|see)\b", re.I
)
_KNOWN = {"hold", "transfer", "transfer_offer", "anything_else", "goodbye", "completed"}


def _unsure_requests(t: Turn, heard: Heard) -> list[str]:
    """Requests for some piece of information that name none of the facts by their words, in a
    turn that is nothing else the rules know (not a hold, "anything else?", a completion...)."""
    if set(heard.kinds) & _KNOWN:
        return []
    return [
        s
        for s in t.requests
        if ((re.match(r"(what|which|who|where|when)\b", s, re.I) and s.endswith("?")) or REQUEST.search(s))
        and INFO_NOUN.search(s)
        and not OPEN_Q.search(s)
        and not CONFIRM_Q.search(s)
    ]


def _asked_otherwise(t: Turn, heard: Heard, book: FactBook, hook: ChoiceClassifier | None) -> dict[str, str]:
    """No fact named: a one-time code the agent sent, or the LLM's pick (if injected) among the facts."""
    asked: dict[str, str] = {}
    if t.questions and _WHICH_OF.match(t.questions[-1]):  # 'I see PRV-SURG-008 and PRV-ICU-008. Which of
        for f in book:  # those would you like to reactivate?': the caller's own among them
            if f.matchable and isinstance(f.value, list) and any(mentions(t.text, v) for v in f.values()):
                asked.setdefault(f.key, "which_of_its_own")
    if any(SENT_CODE.search(s) for s in t.sents):
        for f in book:
            if set(f.words) & {"otp", "passcode", "verification", "security"} or re.search(
                r"otp", f.key, re.I
            ):
                asked.setdefault(f.key, "sent_code")
    unsure = _unsure_requests(t, heard)
    if not asked and hook is not None and unsure:
        choices = [" ".join(f.words) or f.key for f in book] + [
            "none of these (not a request for one of them)"
        ]
        prompt = (
            f'The agent said: "{" ".join(unsure)}"\nWhich piece of the caller\'s information does it ask for?'
        )
        i = hook.choose(prompt, choices)
        if i is not None and 0 <= i < len(book.facts):
            asked[book.facts[i].key] = f"llm:{hook.name}"
    return asked


def _not_said_by_agent(t: Turn, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """A fact whose value the agent just said is not asked for ("forget the network called
    CorpNet"), unless it said it as one of the choices ("The category can be your own
    condition, a family member's serious illness, or bonding")."""
    choices = [x for x in t.sents if re.search(r"\b(or|either|can be|options are)\b", x, re.I)]
    return {
        k: r
        for k, r in asked.items()
        if r == "which_of_its_own"
        or not (
            (f := book.get(k))
            and f.matchable
            and any(mentions(t.text, v) for v in f.values())
            and not any(mentions(c, v) for c in choices for v in f.values())
        )
    }


def _one_group(text: str, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """Numbered fact groups ('application_name_1' / 'access_level_1', '..._2'): a turn that names a
    value of one group ('Is Confluence ...? What access level do you need?') asks about that one."""
    groups = {g for k in asked if (g := group_of(k))}
    if len(groups) < 2:
        return asked
    named = {
        g
        for f in book
        if f.key not in asked
        and (g := group_of(f.key)) in groups
        and f.matchable
        and any(mentions(text, v) for v in f.values())
    }
    if len(named) != 1:
        return asked
    return {k: r for k, r in asked.items() if group_of(k) in ("", *named)}


def _one_sibling(t: Turn, book: FactBook, asked: dict[str, str], given: set[str]) -> dict[str, str]:
    """Facts named inside one fact ('completion_codes': ORIENTATION, BADGE_PICKUP, TB_TEST): asked for
    'the code', the caller gives one: the one the request names ('the code for your T B test'), else
    the first not given yet ('Which task first, and what is the completion code?'). A request that
    says none of their shared words ('What date for your orientation follow-up?') asks for none."""
    out = dict(asked)
    for top in {k.split(".")[0] for k in asked if "." in k}:
        sibs = [f for f in book if f.top == top and "." in f.key and _named_part(f.key)]
        if len(sibs) < 2:
            continue
        shared = set.intersection(*(set(f.words) for f in sibs))
        said = " ".join(t.requests)
        for f in sibs:
            out.pop(f.key, None)
        if not {stem(w) for w in shared} & {stem(w) for w in tokens(said)}:
            continue
        flat = compact(said)
        named = [f for f in sibs if compact(_named_part(f.key)) in flat]
        pick = named or [f for f in sibs if f.key not in given][:1] or sibs[:1]
        out.update({f.key: "named_part" if named else "next_part" for f in pick})
    return out


def _named_part(key: str) -> str:
    """The name a nested key gives its part ('TB_TEST'), '' for a list index or a ranked choice."""
    last = key.rsplit(".", 1)[-1]
    return "" if last.isdigit() or last.endswith("choice") else last.replace("_", " ")


def _readback_kinds(t: Turn, heard: Heard, book: FactBook) -> None:
    """Facts read back (right or wrong) and whether the turn asks the caller to confirm something."""
    ok, wrong = readbacks(" ".join(t.statements + [q for q in t.questions if CONFIRM_Q.search(q)]), book)
    # 'Just today, May twenty-first?': a short question with no wh-word that reads a fact back
    elliptic = " ".join(q for q in t.questions if len(q.split()) <= 6 and not WH.match(q))
    read_in_q = [k for k in (readbacks(elliptic, book)[0] if elliptic else []) if k not in heard.asked]
    ok += [k for k in read_in_q if k not in ok]
    heard.readback_ok = [k for k in ok if k not in heard.asked]
    checking = any(CONFIRM_Q.search(q) for q in t.questions) or bool(READBACK_CUE.search(t.text))
    heard.readback_wrong = [k for k in wrong if k not in heard.asked and k not in ok] if checking else []
    if heard.readback_ok or heard.readback_wrong:
        heard.kinds.append("readback")
    if OPEN_Q.search(heard.question) and not CONFIRM_Q.search(heard.question):
        return  # 'I have you as Priya, Engineering. What would you like help with first?': the question counts
    if (
        any(CONFIRM_Q.search(s) for s in t.sents)
        or (heard.readback_ok and READBACK_CUE.search(t.text))
        or read_in_q
    ):
        _mark(heard, "confirm_question", "confirm_question")


def _option_kinds(t: Turn, heard: Heard) -> None:
    """Options offered in the last question that offers some (not in a request to give or say a value)."""
    found: list[list[str]] = []
    for q in reversed(t.questions or [heard.question]):
        if q and (not CONFIRM_Q.search(q) or re.search(r"\bor\b", q)):
            opts = offered_options(t.sents, q)
            if opts and not re.search(r"\b(give|tell|provide|spell|say)\b", q, re.I):
                found.append(opts)
    if found:  # the last question's options; an earlier question's too ('Is this X or Y? And what size?')
        heard.options, heard.earlier_options = found[0], found[1:2]
        _mark(heard, "options", "options")


def _closing_kinds(t: Turn, heard: Heard) -> None:
    """Troubleshooting steps, open questions, an announced next step, and plain questions/statements."""
    if t.troubleshooting():
        if "confirm_question" in heard.kinds:
            heard.kinds.remove("confirm_question")
        _mark(heard, "troubleshoot", "troubleshoot_step")
    if any(OPEN_Q.search(s) for s in t.sents) and not heard.has("request"):
        _mark(heard, "open_question", "open_question")
    elif any(REQUESTS_Q.search(s) for s in t.sents):  # '... requests? Please give me the names ...'
        _mark(heard, "open_question", "requests_question")
    asks = {
        "request",
        "options",
        "confirm_question",
        "troubleshoot",
        "open_question",
        "transfer_offer",
        "anything_else",
    }
    if t.questions and WILLING_Q.search(t.questions[-1]) and not set(heard.kinds) & asks:
        _mark(heard, "willing_question", "willing_question")
    if t.sents and all(COURTESY.match(x) for x in t.sents):
        _mark(heard, "courtesy", "courtesy_only")
    if NEXT_STEP.search(t.text) and heard.has("completed") and not t.questions and not t.requests:
        _mark(
            heard, "hold", "next_step_announced"
        )  # done with one thing and moving on: the agent keeps going
    if not heard.kinds or (t.questions and not set(heard.kinds) - {"completed", "denial", "readback"}):
        heard.kinds.append("question" if (t.questions or t.requests) else "statement")


def classify(
    text: str,
    book: FactBook,
    given: set[str] | None = None,
    hook: ChoiceClassifier | None = None,
    focus: set[str] | None = None,
    before: str = "",
) -> Heard:
    """Classify one agent turn against the caller's facts (``given``: keys already disclosed;
    ``focus``: the facts of the request in hand, to tell apart 'the dates' of two requests;
    ``before``: the agent's previous turn, where an action whose result this turn states may
    have been announced)."""
    given = given or set()
    t = Turn.of(text)
    heard = Heard(question=(t.questions or t.requests or [""])[-1])
    _speech_acts(t, heard)
    asked = _asked_by_words(t, book, given, focus) or _asked_otherwise(t, heard, book, hook)
    asked = _not_said_by_agent(t, book, asked)
    asked = prefer_heard_digits(t.text, book, asked)
    asked = prefer_fallback(heard.question, book, asked, t.text)
    asked = _one_group(t.text, book, asked)
    asked = _one_sibling(t, book, asked, given)
    heard.lacking = lacking_fields(t.requests, book, asked)
    asked = {k: r for k, r in asked.items() if k not in heard.lacking}
    heard.rules += [f"lacks:{k}:{v}" for k, v in heard.lacking.items()]
    if asked:
        heard.kinds.append("request")
        heard.asked = list(asked)
        heard.rules += [f"ask:{k}:{r}" for k, r in asked.items()]
    _result_kinds(t, heard, book, before)
    _readback_kinds(t, heard, book)
    _option_kinds(t, heard)
    _closing_kinds(t, heard)
    return heard
