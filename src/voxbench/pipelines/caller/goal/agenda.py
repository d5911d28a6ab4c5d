"""The must-haves of the caller's goal that the agent has not yet covered, so a call does not end
on the first completion with the rest of the goal still open.

A goal often asks for several things in one sentence and lists each as a must-have: "keep your
trip on the 12:30 PM flight", "a $12 meal voucher with its code", "your seat and checked bag
confirmed on the new flight". The agent reports one done ("Your flight is confirmed at 12:30 PM.
Anything else?") and a caller that ends there leaves the voucher and the seat unasked. So each
must-have is tracked as *told* once the agent's statements, over the call, have said what tells it
apart from the other must-haves: any value it names (a time, an amount, a date), or enough of its
own words (words no other must-have uses; "voucher", "seat", "baggage"). Before it thanks and
ends, the caller asks about the first must-have not told, once each, in the criterion's own words
("Can you also confirm that my seat assignment is confirmed and my checked baggage remains attached
to the trip?"), one per turn in the goal's order (all at once only when the agent asks for the
whole list: :meth:`Agenda.ask`). A must-have to find something out ("Learn the gate.") is :mod:`.learn`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import stem
from voxbench.pipelines.caller.goal.lang import alt, phrases, words
from voxbench.pipelines.caller.goal.learn import LEARN_GOAL
from voxbench.pipelines.caller.goal.phrases import PHRASES, first_person
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import mentions, runs, sentences_of, tokens


def _a(name: str) -> str:
    return alt("agenda", name)


# The words are data (``goal/lang/<lang>.json``, ``phrases.agenda``); the grammar is here.
_TELL, _GIVE = phrases("agenda", "tell_verb")[0], phrases("agenda", "give_verb")[0]
_ROLE_WORDS = {stem(w) for w in phrases("agenda", "role_words")}
"""Words that say how a must-have is met, not what it is about."""

_VALUE = re.compile(
    r"\$\s?\d[\d,.]*|\b\d{1,2}(?::\d{2})?\s*[ap]\.?m\.?|\b\d{4}-\d{2}-\d{2}\b|\b\d{2,}\b", re.I
)
_NOTHING_TO_PAY = re.compile(rf"\b({_a('nothing_to_pay')})\b", re.I)

_DELIVERABLE = re.compile(
    rf"^(?!(?:{_a('not_lead')})\b)(?:(?:{_a('receive')})\b|.*\b(?:(?:{_a('you')}) (?:{_a('you_receive')})"
    rf"|(?:(?:{_a('the')}) )?(?:{_a('agent')}) (?:\w+ )?(?:{_a('agent_gives')})|(?:{_a('be')}) (?:{_a('given')})\b))",
    re.I,
)
"""A must-have that is something the agent gives or tells ('You receive a meal voucher ...', 'The
agent confirms your seat ...'), not a condition on an offer ('New flight must depart before 2 PM'),
which the caller checks when offered (:func:`.tree.violations`)."""

_LEAD = re.compile(
    rf"^(?:(?:{_a('the_agent')}) (?:(?:{_a('has')}) )?(?:{_a('agent_says')})(?: (?:{_a('that')}))?\s+)", re.I
)
_CLAUSE_END = re.compile(
    rf",?\s+(?:{_a('clause_link')})\s+(?:{_a('clause_subject')})\b|;|(?<!\d):(?!\d)|\s+-\s+|\s+\u2014\s+"
)
"""Where a criterion's first clause ends (not the colon of a clock time: 'the 12:30 PM flight')."""
_MANNER = re.compile(rf"\b({_a('manner')})\s+", re.I)
_AND_GIVES = re.compile(rf"\b({_a('and_or')}) (?:(?:{_a('the_agent')}) )?(?:{_a('and_gives')})\s+")


@dataclass
class MustHave:
    """One must-have criterion, and what tells the agent covered it."""

    text: str
    words: set[str]
    values: list[str] = field(default_factory=list)
    told: bool = False
    asked: bool = False
    condition: bool = False
    """A condition on what the agent offers ('New flight must depart before 2 PM'), which the caller
    checks when it accepts an offer (:meth:`Agenda.settle`), not a thing the agent gives."""
    ask_as: str = ""
    """The question as the tree words it (a check before hanging up), else built from the criterion."""

    def told_by(self, said: str, said_words: set[str]) -> bool:
        """Told by a value it names (nothing to pay: 'free', 'no charge', 'waived'), or by two of its
        own words (its one, when it has one)."""
        if self.values and any(mentions(said, v) for v in self.values):
            return True
        if any(re.fullmatch(r"\$0(\.00)?", v) for v in self.values) and _NOTHING_TO_PAY.search(said):
            return True
        hit = {w for w in self.words if w in said_words}
        return bool(self.words) and len(hit) >= min(2, len(self.words))

    def as_question(self) -> str:
        """The criterion as the caller asks about it, its first clause in the first person, asides
        in brackets left out: 'The agent provides a refund reference' -> 'Can you also give me a
        refund reference?'; 'You receive a meal voucher of $12, and ...' -> 'Can I also get a meal
        voucher of $12?'; 'The agent confirms your seat is kept' -> 'Can you also confirm that my
        seat is kept?'."""
        if self.ask_as:
            return self.ask_as
        s = re.sub(r"\s*\([^)]*\)", "", self.text).strip().rstrip(".")
        if self.condition:  # 'the outbound must be changed' -> 'the outbound is changed'
            s = _MUST.sub(lambda m: _MUST_FORM.get(m.group(1).lower(), f"{m.group(1)}s"), s)
        s = _CLAUSE_END.split(s)[0]
        s = _MANNER.sub("", s)
        s = _AND_GIVES.sub(r"\1 ", s)
        s = re.sub(r"(?<=\w)/(?=\w)", " or ", s)
        m = _GIVES.match(s)
        if m:
            verb = _TELL if m.group("verb").lower().startswith(_TELL) else _GIVE
            return PHRASES["also_tell"][0].format(verb=verb, what=_lower(first_person(m.group("what"))))
        m = _GETS.match(s)
        if m:
            return PHRASES["also_get"][0].format(what=_lower(first_person(m.group("what"))))
        s = _first_lower(first_person(_LEAD.sub("", s)))
        m = _YOU_ACTS.match(s)
        if m:  # 'The agent transfers your case to X' -> 'Can you also transfer my case to X?'
            return PHRASES["also_do"][0].format(verb=_base_form(m.group("verb")), rest=m.group("rest"))
        s = _YOU_AUX.sub(lambda a: f"{_YOU} " + _YOU_AUX_FORM[a.group(1).lower()], s)
        that = (
            "that " if self.condition or _CLAUSE_VERB.search(s) else ""
        )  # 'that my seat remains ...', 'my gate information'
        return PHRASES["also_confirm"][0].format(that=that, what=s)


# A criterion whose subject is the agent ('the agent' said as 'you') keeps its third-person verb
# ('you transfers'): an action verb is asked for in its base form, an auxiliary agrees with 'you'.
_YOU_AUX_FORM = dict(words().rewrites["you_aux_agreement"])
_YOU = phrases("agenda", "you")[0]
_YOU_AUX = re.compile(rf"^(?:{_a('you')}) ({_a('you_aux')})\b", re.I)
_YOU_ACTS = re.compile(
    rf"^(?:{_a('you')}) (?P<verb>(?!(?:{_a('you_aux')})\b)[a-z]+[^s\W]s)\b(?P<rest>.*)$", re.I
)
_SIBILANT_ES = re.compile(rf"(?:{_a('sibilant_es')})$")


def _base_form(verb: str) -> str:
    """The base form of a third-person singular verb: 'transfers' -> 'transfer', 'issues' ->
    'issue', 'notifies' -> 'notify', 'processes' -> 'process', 'reaches' -> 'reach'."""
    v = verb.lower()
    if v.endswith("ies"):
        return v[:-3] + "y"
    if _SIBILANT_ES.search(v):
        return v[:-2]
    return v[:-1]


def _lower(s: str) -> str:
    return s if re.match(r"(I\b|I'|[A-Z]{2,})", s) else s[:1].lower() + s[1:]


_first_lower = _lower
_MUST = re.compile(rf"\b(?:{_a('must')}) (\w+)", re.I)
_MUST_FORM = dict(words().rewrites["must_statement"])
"""A condition's 'must X' asked as a statement of fact ('must be' -> 'is'; any other verb takes an s)."""
_CLAUSE_VERB = re.compile(rf"\b({_a('clause_verb')})\b", re.I)
_GIVES = re.compile(
    rf"^(?:(?:{_a('the')}) )?(?:{_a('agent')}) (?P<verb>{_a('gives_verb')})\s+(?:(?:{_a('you')})\s+)?(?P<what>.+)$",
    re.I,
)
_GETS = re.compile(rf"^(?:{_a('you')}) (?:{_a('gets_verb')})\s+(?P<what>.+)$", re.I)


class Agenda:
    """The must-haves told and not told (see the module docstring)."""

    def __init__(
        self, must_have: list[str], tracked: Callable[[str], bool] = lambda _: False, conditions: bool = False
    ) -> None:
        """``tracked``: whether a must-have is about one of the caller's own requests, which the
        request tracker follows (:class:`.intents.IntentTracker`), not this agenda. ``conditions``:
        the conditions on an offer are items too; for a goal sentence alone (with listed requests,
        a condition is about one of them, the tracker's, even where its words miss it)."""
        checks = [c for c in must_have
                  if (_DELIVERABLE.match(c.strip()) or pattern("kept").search(c))
                  and not LEARN_GOAL.match(c.strip()) and not tracked(c)]  # fmt: skip
        words = [content_words(c) - _ROLE_WORDS for c in checks]
        self.items: list[MustHave] = []
        self.last: list[MustHave] = []  # the must-haves the caller's last check asked about
        for i, c in enumerate(checks):
            others = set().union(*(w for j, w in enumerate(words) if j != i)) if len(checks) > 1 else set()
            own = (words[i] - others) or words[i]
            self.items.append(MustHave(c, own, [v.strip() for v in _VALUE.findall(c)]))
        # the other must-haves, conditions on an offer: told as the others are, or settled once the
        # caller accepts an offer (it checks them then); their own words against every must-have
        conds = [
            c
            for c in must_have
            if conditions and c not in checks and not LEARN_GOAL.match(c.strip()) and not tracked(c)
        ]
        every = [content_words(c) - _ROLE_WORDS for c in [*checks, *conds]]
        for i, c in enumerate(conds):
            mine = every[len(checks) + i]
            others = set().union(set(), *(w for j, w in enumerate(every) if j != len(checks) + i))
            self.items.append(MustHave(c, (mine - others) or mine, [v.strip() for v in _VALUE.findall(c)],
                                       condition=True))  # fmt: skip
        order = {c: i for i, c in enumerate(must_have)}
        self.items.sort(key=lambda m: order[m.text])  # the goal's order: each is asked in turn
        self.settled = False

    def check_before_end(self, tree_lines: list[str]) -> None:
        """A tree line that asks the agent something before hanging up ('Before ending, explicitly
        ask the agent to confirm (1) the flight ..., (2) your seat ...'): an item told by nothing the
        agent said before, asked once in the tree's words, as the tree says, before goodbye."""
        for line in tree_lines:
            m = pattern("before_ending").match(line.strip())
            if m:
                what = pattern("enumeration").sub("", m.group("what"))
                what = re.sub(r"\s*\([^)]*\)", "", what).strip().rstrip(".")  # asides: '(if any)'
                what = re.sub(r"(?<=\w)/(?=\w)", " or ", what)
                self.items.append(
                    MustHave(line, set(), told=False, ask_as=f"Can you {_lower(first_person(what))}?")
                )

    def hear(self, agent_text: str) -> None:
        """Mark the must-haves this agent turn's statements tell."""
        for m in self._told_by(agent_text):
            m.told = True

    def settle(self) -> None:
        """The caller accepted an offer, checked against the tree's conditions then: a condition is
        no longer open. Until then, a report that one must-have is met leaves the conditions
        unconfirmed, asked once before it ends ('All set: your return flight remains unchanged.
        Anything else?' with the outbound change never said)."""
        self.settled = True

    def tells(self, agent_text: str) -> bool:
        """Whether this agent turn's statements tell one of the must-haves (:meth:`hear`)."""
        return bool(self._told_by(agent_text))

    def _told_by(self, agent_text: str) -> list[MustHave]:
        said = " ".join(s for s in sentences_of(agent_text) if not s.endswith("?"))
        if not said:
            return []
        said_words = {stem(t) for t in tokens(said)} | content_words(said) | set(runs(said))
        return [m for m in self.items if not m.ask_as and m.told_by(said, said_words)]

    def open_items(self) -> list[MustHave]:
        """The must-haves neither told nor asked about yet (nor, for a condition, settled)."""
        return [m for m in self.items if not m.told and not m.asked and not (m.condition and self.settled)]

    def ask(self, every: bool = False) -> str:
        """A question about the first open must-have, in the goal's order, then counted as asked: a
        caller asks once, as a person checks before hanging up, and asks the next when the agent
        has answered that one, as EVA's reference callers do (dev: after a report with two or more
        must-haves open, 13 replies raise one of them, none raises two). ``every``: the agent asked
        for the whole list ('What other requests do you have?'), so every open one is asked
        ('Can you also confirm that X? And that Y?')."""
        items = self.open_items()
        items = items if every else items[:1]
        for m in items:
            m.asked = True
        self.last = items
        return _asked(items)

    def unanswered(self) -> list[MustHave]:
        """The must-haves asked about and not told since."""
        return [m for m in self.items if m.asked and not m.told and not (m.condition and self.settled)]

    def last_unanswered(self) -> list[MustHave]:
        """The must-haves the caller's last check asked about and not told since."""
        return [m for m in self.unanswered() if m in self.last]

    def ask_again(self) -> str:
        """The last check again, about what it asked and is not told ('' when none), where the agent
        only said it would look into it (:meth:`.followups.FollowUps.check_unanswered`); an earlier
        check, asked again once already, is not bundled in."""
        return _asked(self.last_unanswered())


def _asked(items: list[MustHave]) -> str:
    """One question about ``items`` ('Can you also confirm that X? And that Y?'; '' for none)."""
    if not items:
        return ""
    questions = [m.as_question() for m in items]
    rest = [f"And {q.removeprefix('Can you also ')}" if q.startswith("Can you also ") else f"And {q[:1].lower()}{q[1:]}"
            for q in questions[1:]]  # fmt: skip
    return " ".join([questions[0], *rest])
