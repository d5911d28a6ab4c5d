"""The goal caller's follow-ups: what it says when the agent's turn asks for no fact, choice or
confirmation (refusals, completions, "anything else?", troubleshooting steps, holds, open
questions, statements), and the request lines those say.

:class:`FollowUps` is a base of :class:`~voxbench.pipelines.caller.goal.policy.GoalCaller`, which
sets every attribute declared here; split from the policy by job, to keep each module on one
screenful of rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.classify import ANYTHING_ELSE_OFFERED, Heard
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.cues import NEXT_STEP, OFFER_VERBS
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.intents import IntentTracker, goal_clause_facts, intent_facts
from voxbench.pipelines.caller.goal.learn import Learnings
from voxbench.pipelines.caller.goal.phrases import Phrasing, as_need, first_person
from voxbench.pipelines.caller.goal.pushback import PushBacks, step_fixes
from voxbench.pipelines.caller.goal.say import FactSayer
from voxbench.pipelines.caller.goal.tree import TreeRules
from voxbench.scenarios import Scenario
from voxbench.spoken import mentions, sentences_of

# A yes/no offer to take something up ('Would you like to do the shift swap now?').
OFFER_REQ = re.compile(
    r"^(?!(?:what|which|how|when|where|who|why)\b)(?:\w+[,.]?\s+)?(would you like|do you want|shall we|should we|can we|are you ready|ready) to\b[^?]*\?$",
    re.I,
)


# A confirmation question that may offer one of the caller's requests ('Would you like to assign it now?').
_OFFER_TO_DO = re.compile(r"^(?:\w+[,.]?\s+)?would you like to (" + OFFER_VERBS + r")\b", re.I)

# An offer to tell more ('Would you like to know more about it?').
MORE_OFFERED = re.compile(
    r"^(?!(?:what|which|how|when|where|who|why)\b)(?:.*\b(would|do) you (like|want) to (know|hear)\b"
    r"|.*\bmore (about|information|details)\b)",
    re.I,
)

# An offer whose object is a pronoun ('Would you like to assign it now?', 'shall we do that?').
_BY_PRONOUN = re.compile(r"\bto \w+ (it|that|this|them)\b", re.I)


_WHAT_ELSE = re.compile(r"\s*what else\b", re.I)
"""'What else can I help you with?' is no yes/no question: the open request is said without 'Yes,'."""


def said_not_asked(heard: Heard) -> bool:
    """The agent's "anything else?" came as a statement ('If you have any other questions, feel
    free to ask.'): a caller answers it with thanks or 'Actually, ...', not with yes or no."""
    return ANYTHING_ELSE_OFFERED in heard.rules and not heard.has("question")


def about(*requests: int) -> str:
    """Which of its requests a line states: what a request said again is counted by
    (:class:`.stall.Repeats`), whatever its phrasing and the details that come with it."""
    return "requests:" + ",".join(map(str, requests))


@dataclass
class Draft:
    """The act being put together from the parts of one agent turn (answer, choice, confirmation)."""

    parts: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    kind: ActKind | None = None
    rule: str = ""
    choice: str = ""
    ends: bool = False


class FollowUps:
    """The caller's replies when its turn's draft holds no answer, choice or confirmation."""

    scenario: Scenario
    config: GoalCallerConfig
    book: FactBook
    rules: TreeRules
    phr: Phrasing
    push: PushBacks
    intents: list[str]
    tracker: IntentTracker
    goal_text: str
    learn: Learnings
    done: list[bool]
    given: set[str]
    acts: list[CallerAct]
    turn: int
    say: FactSayer
    _stuck: int
    _pending_before: int
    _refused: set[int]

    def _act(
        self, kind: ActKind, text: str, rule: str, heard: Heard | None = None, about: str = "", **kw: Any
    ) -> CallerAct:
        raise NotImplementedError  # GoalCaller's: the act recorded and returned

    def _without_draft(self, text: str, heard: Heard, d: Draft) -> CallerAct:
        """No answer, choice or confirmation to give: refusals, completions, steps, holds, open questions."""
        refused = heard.has("denial") and not heard.has("completed")
        if refused and heard.has("anything_else") and self.push.left():
            return self._after_refusal(text, heard)
        if self._asks_rest(heard):  # told part of what it called to find out: the rest only
            return self._ask_rest(heard, bool(MORE_OFFERED.match(heard.question)))
        if heard.has("completed") and heard.has("hold") and not heard.has("anything_else"):
            return self._act("wait", "", "next_step_waits", heard)
        if heard.has("completed") or heard.has("anything_else") or (self.learn.new and self.learn.complete):
            return self._after_done(heard)
        if heard.has("troubleshoot"):
            fixed = step_fixes(self.rules, text)
            self._stuck = 0
            return self._act("report", self.phr.say("fixed" if fixed else "not_fixed"),
                             "tree_step_fixes" if fixed else "tree_step_does_not_fix", heard,
                             choice="fixed" if fixed else "not_fixed")  # fmt: skip
        if heard.has("denial"):
            return self._after_refusal(text, heard, prefix=" ".join(d.parts))
        if d.kind == "decline_transfer":
            return self._act(d.kind, " ".join(d.parts), d.rule, heard, choice=d.choice)
        if heard.has("hold") or heard.has("courtesy"):
            return self._act("wait", "", "hold_waits" if heard.has("hold") else "courtesy_waits", heard)
        if heard.has("willing_question"):
            return self._act("confirm", self.phr.say("yes_ready"), "willing_says_yes", heard, choice="yes")
        if heard.has("open_question"):
            one = bool(re.search(r"\b(second|next|other|another|third|fourth|fifth|last|remaining)\b",
                                 heard.question, re.I))  # fmt: skip
            line, told, what = self._request_line(one)
            return self._act("state_request", line, "state_request", heard, what, facts=told)
        if heard.has("question"):
            return self._unanswerable(heard)
        return self._acknowledge(heard)

    # -- pieces ---------------------------------------------------------------------------------

    def _asks_rest(self, heard: Heard) -> bool:
        """Part of the caller's question is answered and the agent asks what it needs, offers more,
        or has just told a part: the caller asks for the parts still missing (:mod:`.learn`)."""
        if not self.learn.partial or heard.has("denial"):
            return False
        return (
            heard.has("open_question")
            or heard.has("anything_else")
            or bool(MORE_OFFERED.match(heard.question))
            or (self.learn.new and not heard.has("question"))
        )

    def _ask_rest(self, heard: Heard, yes: bool = False) -> CallerAct:
        """'Thanks. I still need to know the gate.': the untold parts, in the goal's own words
        ('Yes, I still need to know ...' to an offer to tell more)."""
        missing = self.learn.missing()
        what = " and ".join(m[:1].lower() + first_person(m)[1:] for m in missing)
        line = f"Yes, I still need to know {what}." if yes else self.phr.say("ask_rest", what=what)
        return self._act("state_request", line, "ask_what_is_missing", heard, choice=" and ".join(missing))

    def _offered_request(self, heard: Heard) -> int | None:
        """The agent offers to take up one of the caller's pending requests ('Would you like to do the
        malpractice update now?'): that request. Not a confirmation before submitting one."""
        q = heard.question
        if not OFFER_REQ.match(q) or re.search(r"\bor\b", q, re.I):
            return None
        if heard.has("confirm_question") and not _OFFER_TO_DO.match(q):
            return None
        named = self.tracker.rank(q)
        pending = self.tracker.pending()
        if named is None and len(pending) == 1 and _BY_PRONOUN.search(q):
            return pending[0]  # 'Would you like to assign it now?': the one request in hand
        return named

    def _refuse_line(self, bad: list[str] | None = None) -> str:
        restate = [
            c for c in (bad or []) if c != "direct"
        ] or self.scenario.user_goal.decision_tree.must_have_criteria[:1]
        line = self.phr.say("no_offer")
        return f"{line} {first_person(restate[0])}" if restate else line

    def _request_line(self, only_next: bool = False) -> tuple[str, list[str], str]:
        """The caller's pending requests (or just the next), with the details of the first one; the
        facts told, and which requests it states (:func:`about`)."""
        pending = self.tracker.pending() or [
            i for i in range(len(self.intents)) if not self.tracker.fallback[i]
        ]
        if only_next:
            pending = pending[:1]
        if len(self.intents) == 1 and self.intents[0] == self.scenario.user_goal.high_level_user_goal:
            return first_person(self.intents[0]), [], about(0)
        parts = [as_need(self.intents[i]) for i in pending]
        line = (", and ".join(parts) + ".").replace(", and I need to ", ", and ")
        details, told = self._intent_details(pending[0])
        return f"{line} {details}".strip(), told, about(*pending)

    def _intent_details(self, i: int) -> tuple[str, list[str]]:
        """The facts that go with request ``i`` and have not been said (the intent's words aside);
        those the goal's own sentence ties to it ('a standing desk converter delivered to East Campus
        floor 1') are part of saying the request, said before or not."""
        intent = self.intents[i]
        others = [x for j, x in enumerate(self.intents) if j != i]
        found = intent_facts(intent, self.book, others)
        rest = [self.tracker.own_words(j) for j in range(len(self.intents)) if j != i]
        have = [f.values() for f in found]
        clause = [f.key for f in goal_clause_facts(self.tracker.own_words(i), rest, self.goal_text, self.book, intent)
                  if f.values() not in have]  # fmt: skip
        keys = self.say.with_companions(list(dict.fromkeys([f.key for f in found] + clause)))
        told = [
            k for k in keys if k not in self.given or k in clause
        ]  # 'a desk on floor 2': and its building
        said = [
            k for k in told if (f := self.book.get(k)) and not any(mentions(intent, v) for v in f.values())
        ]
        return self.say.answer(said), told

    def _focus(self, text: str) -> set[str]:
        """The facts of the request in hand: the one the agent's turn moves to by its words
        ('Now for the room booking, ...'), else the first one not done."""
        pending = self.tracker.pending()
        if not pending or len(self.intents) < 2:
            return set()
        moved = [s for s in sentences_of(text) if NEXT_STEP.search(s)]
        named = self.tracker.named(" ".join(moved)) if moved else None
        i = named if named is not None else pending[0]
        others = [x for j, x in enumerate(self.intents) if j != i]
        return {f.key for f in intent_facts(self.intents[i], self.book, others)}

    def _note_resolutions(self, text: str, heard: Heard) -> None:
        """Which intents the agent has completed or refused, by their words in its closing sentences."""
        self._pending_before = len(self.tracker.pending())
        self._refused |= self._resolve(text, heard, self.tracker, self.learn)

    def _resolve(self, text: str, heard: Heard, tracker: IntentTracker, learn: Learnings) -> set[int]:
        """Marks in ``tracker`` and ``learn`` what this agent turn completes or refuses, and returns
        the requests it refused; nothing else changes (:meth:`would_finish` gives it copies)."""
        asks_back = {"request", "options"} <= set(heard.kinds)  # 'not X unless A or B?': no refusal
        before = {i for i, d in enumerate(tracker.done) if d}
        learn.note(text)
        learning = bool(learn.parts) and len(self.intents) == 1
        completed = heard.has("completed") and not learning  # a question is done when answered
        refused: set[int] = set()
        if completed or (heard.has("denial") and not asks_back):
            said = [s for s in sentences_of(text) if not NEXT_STEP.search(s) and not s.endswith("?")]
            tracker.note(" ".join(said) or text, completed)
            if not completed:  # the requests this refusal named
                refused = {i for i, d in enumerate(tracker.done) if d and i not in before}
        if learning and learn.complete:
            tracker.done[0] = True
        return refused

    def _next_request(self, i: int) -> tuple[str, list[str]]:
        """'Yes, one more thing: I need to ...' with the request's details, and the facts told."""
        nxt = as_need(self.intents[i])
        details, told = self._intent_details(i)
        line = self.phr.say("next_request", intent=nxt if nxt.startswith("I ") else nxt[0].lower() + nxt[1:])
        return f"{line} {details}".strip(), told

    def _still_open(self, i: int, heard: Heard) -> CallerAct:
        """'Yes, my request isn't done yet: I want to add ...' ('Actually, ...' to an offer said as a
        statement, 'If you have any other questions, feel free to ask.'), with the request's
        details (said again, it is bounded like any request: :data:`.stall.LIMITS`)."""
        line = self.phr.say("still_open", intent=as_need(self.intents[i]))
        line = line if line.startswith("I ") else line[:1].lower() + line[1:]
        details, told = self._intent_details(i)
        lead = "Actually," if said_not_asked(heard) else "" if _WHAT_ELSE.match(heard.question) else "Yes,"
        text = f"{lead} {line} {details}".strip()
        return self._act("state_request", text, "request_still_open", heard, about(i), facts=told)

    def _after_done(self, heard: Heard) -> CallerAct:
        self._stuck = 0
        pending = self.tracker.pending()
        if pending and (heard.has("anything_else") or not heard.has("question")):
            if not any(self.done):  # 'Anything else?' before its first request is done: that one
                return self._still_open(pending[0], heard)
            line, told = self._next_request(pending[0])
            return self._act("state_request", line, "next_intent", heard, about(pending[0]), facts=told)
        named = self.tracker.named(heard.question) if heard.has("open_question") else None
        if named is not None:  # 'Now, what PTO question can I help with?': the request it names
            others = [x for j, x in enumerate(self.intents) if j != named]
            told = [f.key for f in intent_facts(self.intents[named], self.book, others)]
            line = f"{as_need(self.intents[named])}. {self.say.answer(told)}".strip()
            return self._act("state_request", line, "named_intent", heard, about(named), facts=told)
        if heard.has("anything_else"):  # offered in a statement: thanks, not 'no'
            bye = self.phr.say("bye_done" if said_not_asked(heard) else "bye_nothing")
            return self._act("end", bye, "nothing_else_end", heard, ends_call=True)
        if heard.has("question"):
            return self._unanswerable(heard)
        return self._act("end", self.phr.say("bye_done"), "resolution_end", heard, ends_call=True)

    def _after_refusal(self, text: str, heard: Heard, prefix: str = "") -> CallerAct:
        self._stuck += 1
        nxt = self.push.next_line(text)
        if nxt is not None:
            return self._act("pushback", f"{prefix} {nxt[0]}", nxt[1], heard)
        if heard.has("question") and self._stuck < self.config.give_up_after:
            return self._unanswerable(heard)
        pending, moved = self.tracker.pending(), len(self.tracker.pending()) < self._pending_before
        # still about a request refused before ('the petition number'): the next one
        moved = moved or any(self.tracker.mentions(i, text) for i in self._refused)
        restated = bool(self.acts) and self.acts[-1].kind == "state_request" and not self.acts[-1].facts
        if pending and (moved or len(pending) >= 2) and not restated:  # that one failed: the next
            self.done[pending[0]] = not moved  # (moved: the refusal named the one it refused)
            i = self.tracker.pending()[0]
            line, told = self._next_request(i)
            if heard.has("transfer_offer"):
                line = f"{prefix or self.phr.say('decline_transfer')} " + re.sub(
                    r"^Yes[,.] (\w)", lambda m: m.group(1).upper(), line
                )
            return self._act("state_request", line, "next_intent_after_refusal", heard, about(i), facts=told)
        return self._act("end", self.phr.say("bye_give_up"), "failure_condition_end", heard, ends_call=True)

    def _acknowledge(self, heard: Heard) -> CallerAct:
        """'Okay.' to a statement; a statement right after one is no progress: the open request
        once more, then goodbye (live: 'I'm glad I could help...' / 'Okay.' looped to the limit)."""
        if (
            self.acts
            and self.acts[-1].kind == "pushback"
            and not self.push.left()
            and not self.tracker.pending()
        ):
            return self._act(
                "end", self.phr.say("bye_give_up"), "failure_condition_end", heard, ends_call=True
            )
        if self.acts and self.acts[-1].kind in ("acknowledge", "state_request") and self.turn > 1:
            self._stuck += 1
            if self._stuck >= self.config.give_up_after:
                return self._act("end", self.phr.say("bye_give_up"), "no_progress_end", heard, ends_call=True)
            if self.tracker.pending() and self.acts[-1].kind == "acknowledge":
                line, told, what = self._request_line(True)
                return self._act("state_request", line, "restate_after_statements", heard, what, facts=told)
        return self._act("acknowledge", self.phr.say("ok"), "acknowledge_statement", heard)

    def _unanswerable(self, heard: Heard) -> CallerAct:
        self._stuck += 1
        if self._stuck >= self.config.give_up_after:
            return self._act("end", self.phr.say("bye_give_up"), "no_progress_end", heard, ends_call=True)
        if heard.lacking:
            return self._lacking(heard)
        return self._act("cannot_answer", self.phr.say("dont_have"), "no_fact_for_question", heard)

    def _lacking(self, heard: Heard) -> CallerAct:
        """Asked for a field it does not have ('the flight number'), the caller says so by name, and
        offers once what it has in its place ('My flight is today to Denver.')."""
        line = self.phr.say("dont_have_field", field=" or the ".join(dict.fromkeys(heard.lacking.values())))
        offer = [k for k in heard.lacking if k not in self.given]
        if offer:
            line = f"{line} {self.say.answer(offer)}"
        rule = "no_such_field_offers_fact" if offer else "no_such_field"
        return self._act("cannot_answer", line, rule, heard, facts=offer)
