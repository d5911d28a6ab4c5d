"""Which offered option the caller takes, and how it names it.

The criteria, in order: the options that break no checkable must-have (:mod:`.tree` limits);
among them the caller's own requests in its order, an option naming one of its facts
(ranked preferences first), an option sharing a word with one of its fact values, the tree's
earliest/latest rule, the option sharing most words with its goal, the injected classifier's
pick when no rule tells them apart, else the first.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.classify import ChoiceClassifier
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.options import ANY_AUX, option_clause
from voxbench.pipelines.caller.goal.phrases import Phrasing, first_person
from voxbench.pipelines.caller.goal.tree import TreeRules, content_words, violations
from voxbench.spoken import mentions, say_time, times


def _a(name: str) -> str:
    return alt("choose", name)


# The words are data (``goal/lang/<lang>.json``, ``phrases.choose``); the grammar is here.
_KEPT = tuple(phrases("choose", "kept_words"))
"""Short words that tell options apart ('all floors', 'not at all') though no content word does."""
_WANT = _a("want_verb")
_TO, _OR = alt("option_words", "to"), alt("option_words", "or")
_WANTS_ME_TO = re.compile(rf"\b({_WANT})\s+(?:{alt('option_words', 'me')})\s+(?:{_TO})\b", re.I)
_WANTS_TO = re.compile(
    rf"\b(?:{alt('option_words', 'you_would')})\s+(?:(?:{alt('option_words', 'still')})\s+)?(?:{_WANT})\s+(?:{_TO})\s+(\w+)",
    re.I,
)
"""The caller's wish ('would you like to use PTO or sick leave?'), not the agent's ('I'll need to')."""
_AGENT_LEAD = re.compile(rf"^(?:{_a('agent_lead')})\s+", re.I)
"""An option the agent says it would do itself ('I'll need to direct you to X', 'I can transfer you')."""
_ON_YOU = re.compile(
    rf"^[\w'-]+\s+(?:{alt('option_words', 'you')})\b", re.I
)  # 'transfer you to a live agent': done to the caller
_WANT_LEAD = re.compile(rf"(?:(?:{alt('option_words', 'still')})\s+)?({_WANT})\b", re.I)
_PRO_VERBS = frozenset(phrases("choose", "pro_verb"))
"""Verbs that stand for the options' own ('what would you like to do next: open a case, ...')."""
_KNOW_Q = re.compile(
    rf"(?:{alt('option_words', 'know_aux')}) (?:{alt('option_words', 'you')}) (?:{_a('know_verb')})\s+(.*)",
    re.I,
)
_YOU_ARE, _I_AM = phrases("option_words", "you_are")
"""A clause's 'you are' said by the caller ('I am')."""
_DO_IT = phrases("option_words", "do_it")[0]
_WISH_TO = phrases("option_words", "wish_to")[0]
_PREPOSITION = re.compile(rf"\b(?:{_a('preposition')})\b")
_COMMON = set(phrases("choose", "common_words"))


def _words(text: str) -> set[str]:
    return content_words(text) | {w for w in re.findall(r"[a-z]+", text.lower()) if w in _KEPT}


def option_name(option: str) -> str:
    """How the caller names the option it picks: by its time when it has one ('the 12:05 PM one')."""
    ts = times(option)
    if ts:
        h, m = ts[0]
        return phrases("option_words", "time_named")[0].format(time=say_time(f"{h:02d}:{m:02d}"))
    return " ".join(option.split()[:8])


# An either/or question's alternative said as a yes/no clause: auxiliary, subject, the rest.
_CLAUSE = re.compile(
    rf"^(?i:({ANY_AUX}))\s+"
    rf"({_a('subject')}|(?:{_a('determiner')})\s+(?:[A-Z]{{1,5}}\s+)*[\w'-]+)\s+(.+)$",
)
_SUBJECT_CAPS = re.compile(rf"^(?:{_a('determiner')})\s+((?:[A-Z]\s+)+)([a-z][\w'-]*)\s+(.+)$")


def say_option(option: str, question: str, phr: Phrasing) -> str:
    """The chosen option in the caller's words: 'The 12:05 PM one, please.'; an either/or
    clause as a statement ('are you unable to connect at all' -> 'I am unable to connect at
    all.'); an action offered ('would you like me to check all floors or ...') as 'Please check
    all floors.'; anything else named ('Window, please.')."""
    if times(option):
        return _named(option, phr)
    clause = option_clause(question, option)
    m = _CLAUSE.match(clause)
    if m and not _WANT_LEAD.match(m.group(3)):
        aux, subject, rest = m.group(1).lower(), m.group(2), m.group(3)
        caps = _SUBJECT_CAPS.match(f"{subject} {rest}")
        if caps:  # 'the H R portal down': a spelled acronym and its noun are the subject
            subject, rest = f"{subject.split()[0]} {caps.group(1)}{caps.group(2)}", caps.group(3)
        elif len(subject.split()) >= 3 and subject.endswith("ly"):  # 'the VPN completely refusing'
            subject, rest = subject.rsplit(" ", 1)[0], f"{subject.rsplit(' ', 1)[1]} {rest}"
        said = first_person(f"{subject} {aux} {rest}".replace(_YOU_ARE, _I_AM))
        return f"{said[:1].upper()}{said[1:]}."
    lead = _AGENT_LEAD.match(option)
    option = option[lead.end() :] if lead else option
    act = first_person(option)  # 'look up the devices assigned to you' -> '... to me'
    act = act[:1].lower() + act[1:]
    if (_WANTS_ME_TO.search(question) or lead) and _is_action(option):
        return _DO_IT.format(act=act)
    wants = _WANTS_TO.search(question)
    if not wants and _ON_YOU.match(option) and _is_action(option):
        return _DO_IT.format(act=act)
    if wants and _is_action(option):
        verb = wants.group(1)  # 'to use PTO or sick leave?': the verb goes with each option
        shared = not re.search(rf"\b(?:{_TO})\s+{re.escape(act.split()[0])}\b", question, re.I)
        own = _OWN_OBJECT.match(act) and re.search(
            rf"\b(?:{_OR})\s+{re.escape(act.split()[0])}\b", question, re.I
        )
        shared = shared and not own  # '... or change your seat': its own verb, not 'add change'
        shared = shared and verb.lower() not in _PRO_VERBS  # 'like to do next: open a case
        return _WISH_TO.format(act=f"{verb.lower()} {act}" if shared else act)
    return _named(option, phr)


def value_names(value: str, option: str, question: str) -> bool:
    """Whether a fact's short value ('PTO') names the whole option: the option is the value, the
    value and one word ('PTO days'), or the words it is short for and one more at most ('general
    paid time off'), the question's wish verb before them aside ('would you like to use ...');
    the caller names the choice by it ('P T O, please.'). An option that says more ('request PTO
    for honeymoon') carries the fact but is more than it: the caller says it as the agent did."""
    short = re.sub(r"[^a-z0-9]", "", value.lower())
    words = re.findall(r"[a-z0-9]+", option.lower())
    wants = _WANTS_TO.search(question)
    if wants and words[:1] == [wants.group(1).lower()]:
        words = words[1:]
    return len(words) <= (2 if short in words else len(short) + 1)


_OWN_OBJECT = re.compile(rf"^[a-z]+\s+(?:{_a('determiner')})\s", re.I)
"""An option that is a verb and its object ('change your seat preference'), offered after an 'or':
it carries its own verb, so the question's verb is not put before it."""


def _named(option: str, phr: Phrasing) -> str:
    name = option_name(option)
    if (
        re.match(r"[A-Z][a-z]", name) and " " not in name
    ):  # 'Window or aisle?': capital only as the question's start
        name = name.lower()
    text = phr.say("choose", option=name)
    return text[:1].upper() + text[1:]


def _is_action(option: str) -> bool:
    """An option that starts with a verb ('change the seat', 'look at a different date'); one
    word alone ('payroll', 'scheduling') names a thing."""
    first = option.split()[0].lower() if len(option.split()) >= 2 else ""
    return bool(first) and first not in _NOUN_STARTS and not first[0].isdigit() and not times(option)


_BOTH = re.compile(rf"(?i){_a('both')}")


def _same_start(a: str, b: str) -> bool:
    """'surgical' and 'surg', 'icu' and 'icu': one word begins the other (three letters or more)."""
    return min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a))


# A question about which of its things to take up first or next.
_ORDER_Q = re.compile(rf"\b({_a('order_q')})\b", re.I)


_NOUN_STARTS = set(phrases("choose", "noun_start"))


class OptionChooser:
    """Picks among offered options by the caller's criteria (see the module docstring)."""

    def __init__(
        self,
        rules: TreeRules,
        book: FactBook,
        tracker: IntentTracker,
        criteria: list[str],
        hook: ChoiceClassifier | None = None,
    ) -> None:
        self.rules = rules
        self.book = book
        self.tracker = tracker
        self.criteria = criteria
        self.goal_words = content_words(" ".join(criteria))
        # clock times its criteria name ('a departure time around 15:00'): one option at one of
        # them is the one they describe, whatever words the others share with the goal
        self.times = {t for c in criteria for t in times(c)}
        self.hook = hook

    def choose(self, options: list[str], question: str = "") -> tuple[str, str]:
        """(the option taken, the rule that took it); ('', '') when none meets the must-haves."""
        ok = [o for o in options if not violations(self.rules, o) and not self._claims_unknown(o)]
        if not ok:
            return "", ""
        ranks = [(r, o) for o in ok if (r := self.tracker.rank(o)) is not None]
        # the options are the caller's own requests, asked which first or next ('Which first, the I-9 or
        # PTO?'; not 'Is it refusing to connect, or ...?'): its own order; with one naming a request, the
        # one in hand ('Which first, scheduling or payroll?')
        order = not question or bool(_ORDER_Q.search(question))
        if len({r for r, _ in ranks}) >= 2 and order:
            return min(ranks)[1], "option_is_next_request"
        if ranks and [min(ranks)[0]] == self.tracker.pending()[:1] and question and order:
            return min(ranks)[1], "option_is_next_request"
        both = self._both(ok)
        if both:
            return both, "option_both_in_facts"
        by_fact = self._by_fact(ok)
        if by_fact[0]:
            return by_fact
        closest = self._closest_to_a_description(ok)
        if closest[0]:
            return closest
        at = [o for o in ok if set(times(o)) & self.times]  # 'the three PM flight' for 'around 15:00'
        if len(at) == 1 and len(ok) > 1:
            return at[0], "option_at_criteria_time"
        if self.rules.prefer in ("earliest", "latest") and all(times(o) for o in ok):
            key = [min(h * 60 + m for h, m in times(o)) for o in ok]
            i = key.index(min(key) if self.rules.prefer == "earliest" else max(key))
            return ok[i], f"tree_prefers_{self.rules.prefer}"
        scored = sorted(ok, key=lambda o: -len(content_words(o) & self.goal_words))
        if len(content_words(scored[0]) & self.goal_words) > (
            len(content_words(scored[1]) & self.goal_words) if len(scored) > 1 else -1
        ):
            return scored[0], "option_matches_goal_words"
        if self.hook is not None and len(ok) > 1:  # unsure: no rule tells the options apart
            pick = self.hook.choose(self.criteria_prompt(), [*ok, "none of these"])
            if pick is not None and 0 <= pick < len(ok):
                return ok[pick], f"option_meets_criteria:llm:{self.hook.name}"
        return ok[0], "first_option_meeting_must_haves" if self.rules.limits else "first_option"

    def own_fact(self, options: list[str]) -> str | None:
        """The caller's fact that picks one of ``options`` ('new_setup' for 'is this your first
        monitor setup, or are you replacing one?'), if a fact picks one."""
        _, why = self.choose(options)
        facts = ("option_matches_fact:", "option_shares_fact_word:", "option_closest_to_fact:")
        return why.split(":", 1)[1] if why.startswith(facts) else None

    def _both(self, ok: list[str]) -> str:
        """'the I C U privilege, the surgical privilege, or both?' with the caller's list fact holding
        both ('PRV-ICU-009', 'PRV-SURG-009'): 'both', when each other option names one of its items."""
        both = [o for o in ok if _BOTH.fullmatch(o.strip(" .?"))]
        rest = [o for o in ok if o not in both]
        if not both or len(rest) < 2:
            return ""
        words = [re.findall(r"[a-z0-9]+", o.lower()) for o in rest]
        common = set.intersection(*(set(w) for w in words)) | _COMMON
        names = ["".join(w for w in ws if w not in common) for ws in words]
        for f in self.book:
            if not isinstance(f.value, list) or len(f.value) < 2:
                continue
            parts = {p for v in f.values() for p in re.split(r"[^a-z0-9]+", v.lower()) if len(p) >= 3}
            if all(n and any(_same_start(n, p) for p in parts) for n in names):
                return both[0]
        return ""

    def _claims_unknown(self, option: str) -> bool:
        """'do you know the asset tag on the laptop' when the caller has no asset tag: not its option."""
        m = _KNOW_Q.match(option)
        if not m:
            return False
        thing = content_words(_PREPOSITION.split(m.group(1))[0])
        known = content_words(" ".join(" ".join(f.words) + " " + " ".join(f.values()) for f in self.book))
        return bool(thing) and not thing & known

    def _by_fact(self, ok: list[str]) -> tuple[str, str]:
        """The one option that names a fact of the caller's (or shares a word with its value)."""
        if len(ok) < 2:
            return "", ""
        for f in self.book:  # ranked preferences and facts named in an option
            if f.key.endswith("first_choice") or not re.search(r"_choice$", f.key):
                hit = [o for o in ok if any(mentions(o, v) for v in f.values())]
                if len(hit) == 1:
                    return hit[0], f"option_matches_fact:{f.key}"
        for f in self.book:  # a fact value sharing a word with exactly one option ('reactivate_restricted')
            vw = {w for v in f.values() for w in content_words(v.replace("_", " ")) if len(w) > 3}
            hit = [o for o in ok if vw & content_words(o)]
            if vw and len(hit) == 1 and not re.search(r"_choice$", f.key):
                return hit[0], f"option_shares_fact_word:{f.key}"
        return "", ""

    def _closest_to_a_description(self, ok: list[str]) -> tuple[str, str]:
        """Either/or about the caller's situation ('unable to connect at all, or connects then fails'):
        the one option sharing most words with one of its descriptive facts ('Can't connect to the
        corporate Wi-Fi at all'), if one shares strictly more than the others."""
        if len(ok) < 2:
            return "", ""
        best: tuple[int, str, str] = (0, "", "")
        for f in self.book:
            text = " ".join(f.values())
            if len(text.split()) < 4:
                continue
            vw = content_words(text) | {w for w in re.findall(r"[a-z]+", text.lower()) if w in _KEPT}
            scores = sorted(((len(vw & _words(o)), o) for o in ok), reverse=True)
            if scores[0][0] > scores[1][0] and scores[0][0] > best[0]:
                best = (scores[0][0], scores[0][1], f.key)
        return (best[1], f"option_closest_to_fact:{best[2]}") if best[1] else ("", "")

    def criteria_prompt(self) -> str:
        return (
            "The caller wants:\n- "
            + "\n- ".join(self.criteria)
            + "\nThe agent offered options. Which one meets this best?"
        )
