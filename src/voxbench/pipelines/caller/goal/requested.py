"""Which of the caller's facts an agent turn asks for, all told: the words of the request sentences
(:mod:`.asks`, :mod:`.fallbacks`), then, when they name none, a code the agent sent or a hook's pick
(a fitted model, :mod:`.learned`, or an LLM, :mod:`.classifier_llm`), then the corrections that
hold for any turn (a value the agent just said is not asked; one numbered group; one part of a
nested fact)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.cues import (
    COMPLETED,
    CONFIRM_Q,
    INFO_NOUN,
    OPEN_Q,
    REQUEST,
    REQUESTS_Q,
    SENT_CODE,
)
from voxbench.pipelines.caller.goal.facts import Fact, FactBook, group_of, stem
from voxbench.pipelines.caller.goal.fallbacks import head_fallback, subject_fallback, unknown_head
from voxbench.pipelines.caller.goal.ifmore import without_more
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.parts import open_parts, parts_of
from voxbench.pipelines.caller.goal.plural import plural_items
from voxbench.pipelines.caller.goal.readback import asks_to_state
from voxbench.pipelines.caller.goal.reasked import ASKS_VALUE
from voxbench.pipelines.caller.goal.rules import CONTEXT
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.pipelines.caller.goal.yesno import asks_whether
from voxbench.spoken import compact, mentions, tokens


def _a(name: str) -> str:
    return alt("requested", name)


class ChoiceClassifier(Protocol):
    """A classifier that only picks among given choices (e.g. an LLM under a grammar).

    ``choose`` returns the index of the chosen item of ``choices`` (or ``None``); it never
    produces words for the caller to say.
    """

    name: str

    def choose(self, question: str, choices: list[str]) -> int | None: ...


def named_by_key(book: FactBook, key: str, sentence: str) -> bool:
    """Whether ``sentence`` says every word of the fact's key (stems), not only a synonym of one."""
    f = book.get(key)
    said = {stem(w) for w in tokens(sentence)}
    return f is not None and bool(f.words) and all(stem(w) in said for w in f.words)


def asked_by_words(
    t: Turn, book: FactBook, given: set[str], focus: set[str] | None, aside: frozenset[str] = frozenset()
) -> dict[str, str]:
    """Facts the request sentences name: by their key words, then by head noun or subject
    (``aside``: facts of requests done, not what a kind alone asks, :func:`.fallbacks.head_fallback`)."""
    asked: dict[str, str] = {}
    steps = t.troubleshooting()
    # the clause an "anything else?" leads asks none of the values it names; the rest of its
    # sentence is read as any request ('What is your employee ID, and anything else?': :mod:`.ifmore`)
    cut = [(r, without_more(r)) for r in t.requests]
    for whole, s in [(r, p) for r, c in cut if c for p in _units(c, book, given, focus)]:
        if (CONFIRM_Q.search(s) and not _NAMES_VALUE.search(s)
                and not asks_to_state(s, book)):  # fmt: skip
            continue  # a read-back or an offer; 'Can you confirm your employee ID?' asks it
        if steps and not ASKS_VALUE.search(s):
            continue  # 'Please restart the VPN client. Did that fix it?'
        if asks_whether(s):  # 'Let me know whether the issue is resolved.': whether, not a value;
            for key, rule in asked_facts(s, book, given=given, focus=focus):  # a fact named by a synonym
                if named_by_key(book, key, s):  # ('issue' ~ justification) is not asked, one named by
                    asked.setdefault(key, rule)  # its own words ('Is your employee ID handy?') is
            continue
        if REQUESTS_Q.search(s):
            continue  # 'What access requests do you need help with?': its requests, not a fact
        open_q = bool(_WHAT_FOR.search(s) or _EITHER_OR.search(s))
        context = " ".join(x for x in t.sents if x not in (s, whole))
        core = _without_purpose(s)
        found = asked_facts(core, book, given=given, context=context, focus=focus)
        if core != s and not found:
            found = asked_facts(s, book, given=given, context=context, focus=focus)
        if _ONLY_IF_CHANGED.search(s):  # 'I'll need your NPI again only if it's different'
            found = [(k, r) for k, r in found if k not in given]
        if open_q:  # 'What is the new role code?' names a fact; 'What should I check in the record?' does not
            found = [(k, r) for k, r in found if r == "name" and not _EITHER_OR.search(s)]
        for key, rule in found:
            asked.setdefault(key, rule)
        if not OPEN_Q.search(s):
            covered = {h for k, _ in found if (f := book.get(k)) for h in (*f.heads, *f.words[-1:])}
            for key, rule in head_fallback(core, book, given | set(asked), covered, focus, aside):
                asked.setdefault(key, rule)
            for key, rule in unknown_head(core, book, set(asked) | {k for k, _ in found}):
                asked.setdefault(key, rule)
        if not found and not asked and not OPEN_Q.search(s) and _ID_WORD.search(s):
            live = " ".join(x for x in t.sents if x != s and not COMPLETED.search(x))  # not 'payroll done'
            for key, rule in subject_fallback(s, book, live):
                asked.setdefault(key, rule)
    return (
        _less_specific_borrowed(asked, book) or named_before(t, book, given, focus) or plural_items(t, book)
    )


def _units(r: str, book: FactBook, given: set[str], focus: set[str] | None) -> list[str]:
    """A request's parts read one by one (:mod:`.parts`) when one is an open question or each names
    a fact by its words; else the whole ('... an existing monitor, and what size?': 'monitor size')."""
    ps = parts_of(r)
    if len(ps) > 1 and (open_parts(r) or all(asked_facts(p, book, given=given, focus=focus) for p in ps)):
        return ps
    return [r]


def _less_specific_borrowed(asked: dict[str, str], book: FactBook) -> dict[str, str]:
    """A fact one request found by borrowing words from the rest of the turn (rule ``context``) is
    not asked when another request names a more specific fact with those words ('Please spell your
    spouse's first name. And your spouse's last name.': 'last name' is the spouse's, not the caller's)."""
    words = {k: set(f.words) for k in asked if (f := book.get(k))}
    return {
        k: r
        for k, r in asked.items()
        if not (
            r.startswith(CONTEXT) and k in words and any(words[k] < w for o, w in words.items() if o != k)
        )
    }


# A request whose object is a pronoun ('Please give those to me.', 'Please read it again slowly.',
# 'Can you spell that?'): what it asks for was named in the sentence before it.
_POINTS_BACK = re.compile(
    rf"\b({_a('back_verb')})\b[^.?!]*?\b({_a('back_pronoun')})\b"
    rf"(?=\s*(?:[.?!,]|$)|\s+(?:{_a('back_follow')})\b)"
    rf"|\b({_a('back_that_verb')})\b[^.?!]*?\b({_a('back_demonstrative')}) ({_a('back_info')})\b",
    re.I,
)  # the pronoun as an object ('give those to me'), not a determiner ('confirm those dates') or a clause;
# 'that information' / 'those details' point back too


_WH_BACK = re.compile(
    rf"^(?:{_a('back_wh')})(?=(?:\s+(?:{_a('back_wh_word')}))*[\s,]*[?.!]*$)"
    rf"(?=.*\b(?:{_a('back_wh_pronoun')})\b)",
    re.I,
)
"""A question of a wh-word and a pronoun alone ('What are they?', 'Which ones?', 'Could you tell
me what it is?'): it names no thing of its own, so it asks for what the sentence before named."""


def named_before(t: Turn, book: FactBook, given: set[str], focus: set[str] | None) -> dict[str, str]:
    """Facts asked by a request that points back with a pronoun: those the sentence before it names
    ('I still need the aggregate limit, the effective date and the expiration date. Please give those
    to me.'; 'Your clearance code should include dashes. Please read it again with the dashes.')."""
    asked: dict[str, str] = {}
    for s in t.requests:
        i = t.sents.index(s)
        if i == 0 or not (_POINTS_BACK.search(s) or _WH_BACK.search(s.replace(",", " "))):
            continue
        before = t.sents[i - 1]
        wh_only = not _POINTS_BACK.search(s)
        for key, _ in asked_facts(before, book, given=set(), context="", focus=focus):
            if not wh_only or _named_alone(book.get(key), before):
                asked.setdefault(key, "named_before")
    return asked


_BACK_LEAD = frozenset(stem(w) for w in phrases("requested", "back_named_lead"))


def _named_alone(f: Fact | None, sentence: str) -> bool:
    """The sentence names the fact by all its key words in a row, as a noun phrase of its own: right
    after a determiner, a linking or reporting verb, a preposition, a list's comma or the sentence's
    start (``phrases.requested.back_named_lead``), not after a modifier of another thing ('a supervising physician NPI' is not the caller's NPI). A bare 'What is it?' has no noun
    of its own, so it may take only a fact the sentence before said whole."""
    if f is None:
        return False
    said = [stem(w) for w in re.findall(r"[a-z0-9]+|,", sentence.lower())]
    own = [stem(w) for w in f.words]
    n = len(own)
    return any(
        said[j : j + n] == own and (j == 0 or said[j - 1] in _BACK_LEAD or said[j - 1] == ",")
        for j in range(len(said) - n + 1)
    )


_ONLY_IF_CHANGED = re.compile(
    rf"\b(?:{_a('only_if')})\b|\b(?:{_a('if')}) ({_a('changed_subject')})('s| (?:{_a('changed_aux')}))?"
    rf" ({_a('changed')})",
    re.I,
)
_WHICH_OF = re.compile(rf"^(?:(?:{_a('which_lead')}) )?(?:{_a('which_of')})\b", re.I)
_NAMES_VALUE = re.compile(rf"\b({_a('value_verb')}|{_a('value_wh')})\b", re.I)
_ID_WORD = re.compile(rf"\b({_a('id_word')})\b", re.I)
_UNSURE_WH = re.compile(rf"({_a('unsure_wh')})\b", re.I)
_SENT_CODE_KEY = re.compile(_a("sent_code_key"), re.I)
_SENT_CODE_WORDS = frozenset(phrases("requested", "sent_code_words"))
# A yes/no question between two alternatives ('For the Wi-Fi issue, are you unable to connect, or ...?')
_EITHER_OR = re.compile(
    rf"^(?:[^,?]*,\s*)?({_a('either_aux')})\b(?![^?]*\b({_a('either_wh')})\b)[^?]*"
    rf",?\s+(?:{_a('or')})\s+({_a('or_next')})\b[^?]*\?$"
    rf"|^(?:[^,?]*,\s*)?({_a('be')})\s+[\w-]+\s+({_a('article')})\b[^?]*\b(?:{_a('or')})\s+({_a('article')})\b[^?]*\?$",  # 'Is X a B or a C?'
    re.I,
)
_PURPOSE = re.compile(rf"^(?:{alt('asks', 'purpose_lead')})\b[^,?!]*,\s*(?=\S)", re.I)
"""A purpose clause leading a request ('Just so I can pull up the right record, please read me the
code'; 'For verification purposes, what is ...'): it says why the agent asks, not what; its words
('record', 'account') name a fact only when the request itself names none."""


def _without_purpose(s: str) -> str:
    return _PURPOSE.sub("", s, count=1)


# 'What would you like me to check in the employee record?': what to do, not a value
_WHAT_FOR = re.compile(rf"\b(?:{_a('what_for')})\b", re.I)
_KNOWN = {"hold", "transfer", "transfer_offer", "anything_else", "goodbye", "completed"}


def _unsure_requests(t: Turn, kinds: Sequence[str]) -> list[str]:
    """Requests for some piece of information that name none of the facts by their words, in a
    turn that is nothing else the rules know (not a hold, "anything else?", a completion...)."""
    if set(kinds) & _KNOWN:
        return []
    return [
        s
        for s in t.requests
        if ((_UNSURE_WH.match(s) and s.endswith("?")) or REQUEST.search(s))
        and INFO_NOUN.search(s)
        and not OPEN_Q.search(s)
        and not CONFIRM_Q.search(s)
    ]


def _learned_requests(t: Turn, kinds: Sequence[str]) -> list[str]:
    """Requests a fitted model may read: any that is not an open question, a confirmation, an
    either/or question about the caller's situation or a question about its requests, in a turn
    that is nothing else the rules know."""
    if set(kinds) & _KNOWN:
        return []
    return [
        s
        for s in t.requests
        if not (OPEN_Q.search(s) or CONFIRM_Q.search(s) or REQUESTS_Q.search(s) or _EITHER_OR.search(s))
    ]


def asked_otherwise(
    t: Turn, kinds: Sequence[str], book: FactBook, hook: ChoiceClassifier | None, given: set[str]
) -> dict[str, str]:
    """No fact named: a one-time code the agent sent, or the pick of the hook (if injected): a
    fitted model's (``pick_facts``, :mod:`.learned`) or an LLM's among the facts."""
    asked: dict[str, str] = {}
    if t.questions and _WHICH_OF.match(t.questions[-1]):  # 'I see PRV-SURG-008 and PRV-ICU-008. Which of
        for f in book:  # those would you like to reactivate?': the caller's own among them
            if f.matchable and isinstance(f.value, list) and any(mentions(t.text, v) for v in f.values()):
                asked.setdefault(f.key, "which_of_its_own")
    if any(SENT_CODE.search(s) for s in t.sents):
        for f in book:
            if set(f.words) & _SENT_CODE_WORDS or _SENT_CODE_KEY.search(f.key):
                asked.setdefault(f.key, "sent_code")
    pick = getattr(hook, "pick_facts", None)
    if not asked and pick is not None:
        if _learned_requests(t, kinds):
            asked.update({k: f"learned:{hook.name}" for k in pick(t.text, book, given) if hook})
        return asked
    unsure = _unsure_requests(t, kinds)
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


def learned_extra(
    t: Turn,
    kinds: Sequence[str],
    book: FactBook,
    hook: ChoiceClassifier | None,
    given: set[str],
    asked: dict[str, str],
) -> dict[str, str]:
    """A fitted model in ``union`` mode adds the facts it reads as asked to those the rules read
    (only in a turn whose requests it may read, see :func:`_learned_requests`)."""
    pick = getattr(hook, "pick_facts", None)
    if pick is None or getattr(hook, "mode", "fallback") != "union" or not asked:
        return asked
    if not _learned_requests(t, kinds):
        return asked
    extra = {
        k: f"learned:{getattr(hook, 'name', 'model')}" for k in pick(t.text, book, given) if k not in asked
    }
    return {**asked, **extra}


def one_group(text: str, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
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


def one_sibling(t: Turn, book: FactBook, asked: dict[str, str], given: set[str]) -> dict[str, str]:
    """Facts named inside one fact ('completion_codes': ORIENTATION, BADGE_PICKUP, TB_TEST): asked for
    'the code', the caller gives one: the one the request names ('the code for your T B test'), else
    the first not given yet ('Which task first, and what is the completion code?'). A request that
    says none of their shared words ('What date for your orientation follow-up?') asks for none."""
    out = dict(asked)
    for top in {k.split(".")[0] for k in asked if "." in k}:
        # a listed record's fields ('original_travel_details.0.origin') are fields, not named parts
        sibs = [
            f for f in book if f.top == top and "." in f.key and _named_part(f.key) and not f.record_words
        ]
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
