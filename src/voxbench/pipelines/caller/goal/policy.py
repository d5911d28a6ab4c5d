"""The goal caller: decides each reply by its decision tree and says only its own facts.

``GoalCaller(scenario).open()`` gives the starting utterance; ``respond(agent_text)`` classifies
the agent's turn (:mod:`.classify`) and decides, in this order:

1. the agent transfers or says goodbye: end the call;
2. the agent asks for facts: give exactly those, codes spelled (:mod:`.speech`);
   reads a fact back wrong: correct it; asks a yes/no question: yes when the read-back or the
   offer meets the goal (:mod:`.tree` limits), no and the must-haves otherwise;
3. offers options: the one the criteria pick (limits, the tree's earliest/latest rule, the
   caller's ranked preferences, its facts, its goal's words);
4. offers a transfer: decline or accept, as the escalation rule says (a forbidden one offered
   again with nothing moved on, or once the refusal's answers are spent: declined, and goodbye,
   :mod:`.ending`); offers something outside the goal: no, and goodbye with it when every request
   is done;
5. reports the task done (in words, or by stating the result it wants: :mod:`.results`; a goal
   that asks to find things out, when it has told each: :mod:`.learn`), or asks "anything else?"
   (or says it: 'If you have any other questions, feel free to ask'): the request still open (of a
   question half answered, only the parts not told), the next intent, or thanks and goodbye;
6. reports it found nothing under values the caller gave: those values again, names spelled
   (:mod:`.notfound`); refuses: the tree's next scripted line, its push-backs (or, where it counts none, one follow-up
   question), each refused request its own, then goodbye (failure); the agent's answer to a
   push-back that completes nothing new and refuses again is the refusal standing;
7. a troubleshooting step: fixed or not, by the steps the tree says fix it;
8. a hold (or an action announced, 'I'll add a checked bag'): wait silently; a question it has
   no fact for: say so (it never invents one); a check that it is there, alone: it is (:mod:`.presence`).

Whatever the rule, one rule bounds saying the same thing again (:class:`.stall.Repeats`: this
content, to this ask, with no progress since, a limit per kind of act): the same line once more to
the same agent turn gets goodbye instead, as the tree's failure condition does; facts or a request
said again come with 'As I said, ...', and a fact the agent failed to hear twice is spelled
(:mod:`.hearing`), until said once too often with nothing moved on; the same correction says so
the second time in a row and is given up after the fourth (:mod:`.corrections`). Turns in a row
that bring no progress at all end the call too (:class:`.stall.Stalls`).

Deterministic for a seed (the seed only picks among equivalent phrasings).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from voxbench.pipelines.caller.goal.acting import ActLog, about
from voxbench.pipelines.caller.goal.acts import CallerAct, require_last
from voxbench.pipelines.caller.goal.alternatives import ask_fallback, decline_alternative
from voxbench.pipelines.caller.goal.classify import ChoiceClassifier, Heard, classify
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.cues import PROGRESS
from voxbench.pipelines.caller.goal.drafts import Draft, Drafts
from voxbench.pipelines.caller.goal.ending import Endings
from voxbench.pipelines.caller.goal.enumerated import unnumbered
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.fit import answers_x, told_over
from voxbench.pipelines.caller.goal.followups import FollowUps
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.learn import Learnings
from voxbench.pipelines.caller.goal.lists import listed
from voxbench.pipelines.caller.goal.marked import YES, a_choice
from voxbench.pipelines.caller.goal.marks import restored
from voxbench.pipelines.caller.goal.notfound import given_again, given_twice, not_found_keys
from voxbench.pipelines.caller.goal.openask import OpenAnswer
from voxbench.pipelines.caller.goal.phrases import as_need
from voxbench.pipelines.caller.goal.presence import check_in, here, split_presence
from voxbench.pipelines.caller.goal.record import other_record
from voxbench.pipelines.caller.goal.requests import Requests
from voxbench.pipelines.caller.goal.rules import CONFIRM_OFFER, CUT_REPLIES, NOT_FOUND_GIVES_AGAIN
from voxbench.pipelines.caller.goal.say import FactSayer
from voxbench.pipelines.caller.goal.scope import about_transfer
from voxbench.pipelines.caller.goal.soundalike import as_label
from voxbench.pipelines.caller.goal.stall import Stalls
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.pipelines.caller.goal.treefirst import tree_first
from voxbench.pipelines.caller.goal.wishes import wishes_confirmed
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of, tokens

__all__ = ["GoalCaller", "GoalCallerConfig"]

"""The caller's replies to a request cut before its object ('First, I need your')."""
_GOES_ON = re.compile(rf"\s*(?:{alt('forms', 'cut_determiner')})\b", re.I)
"""A turn that begins where a cut request ends ('your employee ID?'): the words a cut ends on."""


def _report(agent_text: str) -> str:
    """What an agent turn reports, whatever it asks: its statements' words (numbers as digits)."""
    return " ".join(t for s in sentences_of(agent_text) if not s.endswith("?") for t in tokens(s))


class GoalCaller:
    """A scripted-by-construction caller for one (culture-resolved) scenario: one
    :class:`.state.CallState`, and the parts that decide on it (acts, requests, drafts, follow-ups)."""

    def __init__(
        self,
        scenario: Scenario,
        config: GoalCallerConfig | None = None,
        hook: ChoiceClassifier | None = None,
        withdrawable: bool = False,
    ) -> None:
        self.s = CallState.build(scenario, config or GoalCallerConfig(), hook)
        self.log = ActLog(self.s)
        self.req = Requests(self.s)
        self.drafts = Drafts(self.s, self.log, self.req)
        self.follow = FollowUps(self.s, self.log, self.req)
        self.ends = Endings(self.s, self.log, self.follow.before_goodbye, self.follow.declined_next)
        self.withdrawable = withdrawable  # keep each decision's state before (:meth:`withdraw`)
        self._undo: CallState | None = None

    @classmethod
    def from_resolved(cls, data: dict[str, Any], **kw: Any) -> GoalCaller:
        """From a culture-resolved scenario dict (``CallScenario.resolved()``, or a record's scenario.json)."""
        return cls(Scenario.model_validate(data), **kw)

    # -- what the call holds (read by the live driver, the bench and tests) ----------------------

    @property
    def scenario(self) -> Scenario:
        return self.s.scenario

    @property
    def config(self) -> GoalCallerConfig:
        return self.s.config

    @property
    def book(self) -> FactBook:
        return self.s.book

    @property
    def say(self) -> FactSayer:
        return self.s.say

    @property
    def given(self) -> set[str]:
        return self.s.given

    @property
    def acts(self) -> list[CallerAct]:
        return self.s.acts

    @property
    def tracker(self) -> IntentTracker:
        return self.s.tracker

    @property
    def done(self) -> list[bool]:
        """Which of its requests are done (or refused), in order."""
        return self.s.tracker.done

    @property
    def learn(self) -> Learnings:
        return self.s.learn

    @property
    def stalls(self) -> Stalls:
        return self.s.stalls

    @property
    def turn(self) -> int:
        return self.s.turn

    @property
    def opened(self) -> bool:
        return self.s.opened

    @property
    def ended(self) -> bool:
        return self.s.ended

    @property
    def end_reason(self) -> str | None:
        """Why the call ended (resolved, failed, transfer, agent_goodbye, stalled; None while it
        goes on): the CallerPolicy face of the ending act's reason."""
        return self.s.acts[-1].end_reason or None if self.ended and self.s.acts else None

    # -- the decision ---------------------------------------------------------------------------

    def open(self) -> CallerAct:
        """The starting utterance (the opening line of the call)."""
        self._keep_undo()
        self.s.opened = True
        text = self.s.scenario.starting_utterance() or as_need(self.s.plain[0])
        return self.log.act("open", text, "starting_utterance")

    def respond(self, agent_text: str, t: float | None = None) -> CallerAct:
        """Decide the reply to one agent turn (timed in ``ms`` by the caller of this method;
        ``t``, the call time, is not used: the goal caller decides on words alone)."""
        self._keep_undo()
        self.s.turn += 1
        agent_text = self._joined_to_cut(self._punctuated(agent_text))
        checked, rest = split_presence(
            agent_text, self.s.names
        )  # 'Hello? Are you still there?' (:mod:`.presence`)
        agent_text = rest or agent_text
        previous, self.s.agent_turn = self.s.agent_turn, agent_text
        hand = self.req.in_hand(agent_text)
        heard = classify(agent_text, self.s.book, self.s.given, self.s.hook, hand, previous)
        moved = self.req.in_hand(agent_text, heard)  # once the turn's completions are counted
        ctx = (self.s.book, self.s.given, self.s.hook, moved, previous)
        heard = classify(agent_text, *ctx) if moved != hand else heard
        agent_text, heard = as_label(agent_text, heard, self.s.book, lambda s: classify(s, *ctx))
        self.s.agent_turn = agent_text  # a label heard off, read as the fact's (.soundalike)
        self.s.in_hand = moved.current
        told = self._told_first(self.drafts.refuse(heard))  # a fact the tree refuses: not asked
        if not self.s.opened:
            self.s.opened = True
            text = self.s.scenario.starting_utterance() or as_need(self.s.plain[0])
            return self.log.act("open", text, "starting_utterance", heard)
        self.s.agenda.hear(agent_text)
        if heard.has("completed") or PROGRESS.search(agent_text):  # the agent got something done
            self.s.reported.add(_report(agent_text))
        self.s.stalls.note(self.s.progress())
        if self.s.stalls.spent:
            return self.log.act(
                "end", self.s.phr.say("bye_give_up"), "stalled_call_end", heard, ends_call=True
            )
        act = here(self.s, self.log, heard) if checked and not rest else self._decide(agent_text, heard, told)
        self.s.stalls.note(self.s.progress(), act.kind)
        return act

    def _keep_undo(self) -> None:
        """Keep the call's state as it is before a decision, for :meth:`withdraw` (a copy of
        what the call has done; the scenario, the config and the hook are shared, not copied).
        Only a live caller can have an act withdrawn, and only it pays the copy (about 2 ms a
        decision, measured on EVA scenarios): the bench's callers say every act."""
        if not self.withdrawable:
            return
        s = self.s
        self._undo = copy.deepcopy(s, {id(x): x for x in (s.scenario, s.config, s.hook)})

    def withdraw(self, act: CallerAct) -> None:
        """The last act was never said (the agent spoke first: the live driver held its words):
        the call's state goes back to before that decision, so the facts it would have given,
        its repeats and stalls, its turn count and its phrasings' draws are as if it had not
        been decided; the agent turn it answered comes again with the next one."""
        if not self.withdrawable:
            raise ValueError("this caller keeps no state to withdraw an act (withdrawable=False)")
        undo = require_last(self.s.acts, act, self._undo)
        self.s.__dict__.clear()
        self.s.__dict__.update(undo.__dict__)  # in place: every part holds this one state
        self._undo = None

    def _accepts_offer(self, heard: Heard, d: Draft) -> bool:
        """An option chosen, an offer accepted, or a read-back of a change it wants confirmed: the
        caller has checked what it takes against its tree's conditions (:meth:`.agenda.Agenda.settle`)."""
        if d.kind == "choose" or d.rule == CONFIRM_OFFER:
            return True
        wanted = [f for k in heard.readback_ok if (f := self.s.book.get(k)) is not None and f.wanted]
        return d.kind == "confirm" and d.choice == "yes" and bool(wanted)

    def _punctuated(self, agent_text: str) -> str:
        """The turn with the punctuation a recogniser drops put back: a list's commas at the
        caller's own words (:mod:`.lists`; a numbered list of asks unnumbered first,
        :mod:`.enumerated`), then question marks by word order (:mod:`.marks`)."""
        return restored(listed(unnumbered(agent_text, self.s.book), self.s.book))

    def _joined_to_cut(self, agent_text: str) -> str:
        """The rest of an agent line the recogniser cut in two: the caller's last reply asked for
        the end of a request ('... First, I need your' -> 'Sorry, I missed the end of that.'), and
        this turn goes on with it ('employee ID and the last four digits of your phone.': a small
        letter, or a possessive or article first). The two are one request, answered as one."""
        last = self.s.acts[-1] if self.s.acts else None
        if last is None or last.rule not in CUT_REPLIES or not self.s.agent_turn:
            return agent_text
        if not (agent_text.lstrip()[:1].islower() or _GOES_ON.match(agent_text)):
            return agent_text
        return f"{self.s.agent_turn.rstrip(' .,')} {agent_text.lstrip()}"

    def would_finish(self, agent_text: str) -> bool:
        """Whether this agent turn, a completion (or the last part of a question told), would leave
        none of the caller's requests open. Nothing changes: the live driver asks it to choose how
        long to wait before replying (``GoalSimConfig.done_wait_s``), before the turn is over."""
        if not self.s.opened or not self.s.tracker.pending():
            return False
        agent_text = self._punctuated(agent_text)
        heard = classify(
            agent_text, self.s.book, self.s.given, None, self.req.in_hand(agent_text), self.s.agent_turn
        )
        tracker, learn = copy.deepcopy((self.s.tracker, self.s.learn))
        self.req.resolve(agent_text, heard, tracker, learn)
        told = heard.has("completed") or (learn.new and learn.complete)
        agenda = copy.deepcopy(self.s.agenda)
        agenda.hear(agent_text)
        return told and not heard.has("denial") and not tracker.pending() and not agenda.open_items()

    def silence(self) -> CallerAct:
        """The agent has said nothing for a long while: is it still there (:func:`.presence.check_in`)?"""
        self._keep_undo()
        return check_in(self.s, self.log)

    def _told_first(self, heard: Heard) -> OpenAnswer | None:
        """The tree's own answer to the question, when it wins over facts the question names
        (:func:`.fit.told_over`): those are no longer asked (None: no such answer)."""
        told = self.s.open_answers.told_for(heard.question) if heard.asked and heard.question else None
        drop = told_over(heard, self.s.book, told) if told is not None else []
        if told is None or not drop:
            return None
        heard.asked = [k for k in heard.asked if k not in drop]
        heard.rules += [f"told_over:{k}" for k in drop]
        if not heard.asked:
            heard.kinds = [k for k in heard.kinds if k != "request"]
        return None if answers_x(heard, self.s.book, told) else told  # a fact still asked says it

    def _offered_request(self, text: str, heard: Heard, offered: int) -> CallerAct:
        """One of its own requests offered ('Would you like to do the shift swap now?'): yes, and the
        request with its details; refused with it offered, the tree's question first (:mod:`.treefirst`)."""
        if (asked := tree_first(self.s, self.log, text, heard, None)) is not None:
            return asked
        need = as_need(self.s.plain[offered])
        details, told = self.req.details(offered, later=True)
        yes = "" if a_choice(heard.options, heard.question) else YES  # a choice: no yes
        line = f"{yes} {need[:1].upper()}{need[1:]}. {details}".strip()
        return self.log.act(
            "state_request", line, "offered_request_yes", heard, about(offered), facts=told, choice="yes"
        )

    def _decide(self, text: str, heard: Heard, tree_says: OpenAnswer | None = None) -> CallerAct:
        self.ends.note_named_done(heard)
        self.req.note_resolutions(text, heard)
        self.ends.note_refusal(heard)
        end = self.ends.agent_ends(heard) or self.ends.agent_fails(heard)
        if end is not None:
            return end
        lost = not_found_keys(text, heard, self.s.book, self.s.given)  # 'No booking under that code.'
        if lost and not given_twice(lost, self.s.acts):
            line = given_again(lost, self.s.say, self.s.phr)
            return self.log.act("answer", line, NOT_FOUND_GIVES_AGAIN, heard, facts=lost)
        offered = self.req.offered(heard, text)
        record = "" if heard.readback_wrong else other_record(text, self.s.record)
        offered = None if record else offered  # a yes to another's booking is no yes (:mod:`.record`)
        if offered is not None and self.s.learn.partial:  # 'Would you like to know more about it?'
            return self.follow.ask_rest(heard, yes=True)
        if offered is not None and (not heard.has("request") or self.s.tracker.fallback[offered]):
            return self._offered_request(text, heard, offered)  # 'Would you like to do the shift swap now?'
        d = Draft()
        if heard.has("options") and self.s.tracker.orders(heard.options, heard.question):
            heard.kinds = [k for k in heard.kinds if k != "request"]  # 'Which first: I-9 or PTO?'
        if heard.has("request"):
            if not wishes_confirmed(heard, d, self.s.book, self.s.say):  # 'confirm your departure time'
                self.drafts.answer(heard, d)
            d.parts[:0] = [tree_says.line] if tree_says else []  # the tree's answer, then the facts
            if offered is not None and d.choice != "yes" and not a_choice(heard.options, heard.question):
                d.parts.insert(0, YES)
                d.choice = "yes"
            if heard.has("open_question"):  # 'What access requests do you need? Please give me the names.'
                line, told, _ = self.req.line()
                d.parts.insert(0, line)
                d.facts[:0] = told
        elif tree_says is not None and not heard.readback_wrong:
            return self.follow.ask.said_open(tree_says, heard)
        if heard.readback_wrong:
            self.drafts.correction(heard, d)
        elif record:  # 'No, that's not my flight. Mine is from Phoenix to Denver on May 13.'
            d.parts = [self.s.phr.say("not_my_record", record=record, own=self.s.record.said),
                       *(p for p in d.parts if not p.startswith("Yes"))]  # fmt: skip
            d.kind, d.rule, d.choice = "correct", "correct_other_record", "no"
        elif heard.has("options") and heard.has("request"):
            self.drafts.option_named(heard, d)
        elif heard.has("options"):
            self.drafts.option(heard, d)
        elif heard.has("confirm_question") and not about_transfer(
            heard.question, heard.has("transfer_offer")
        ):
            self.drafts.confirm(text, heard, d)
        keys = [k for o in heard.earlier_options if (k := self.s.chooser.own_fact(o)) and k not in d.facts]
        if keys:  # 'First setup, or...? And?'
            d.parts[:0], d.facts[:0] = [self.s.say.answer(keys)], keys
        parts = len(d.parts)
        accepted = self.drafts.transfer(heard, d)
        if accepted is not None:
            return accepted
        if len(d.parts) > parts and d.kind == "decline_transfer":  # declined, and nothing else asked
            end = self.ends.after_declining(heard, d)
            if end is not None:
                return end
        if (asked := tree_first(self.s, self.log, text, heard, d)) is not None:  # its question first
            return asked
        decline_alternative(
            self.s, text, d, lambda: self.req.line(only_next=True)[0]
        )  # 'another floor': as the tree says
        ask_fallback(self.s, text, d)  # 'the desk waitlist' when floor 3 backs up floor 2: floor 3
        if (closed := self.ends.confirmed_last(heard, d)) is not None:
            return closed  # its values confirmed with nothing left open: yes, and goodbye
        if d.kind is not None and d.kind != "decline_transfer":
            self.s.moved_on(d.rule, heard.readback_ok)
            if self._accepts_offer(heard, d):
                self.s.agenda.settle()
            return self.log.act(d.kind, " ".join(d.parts), d.rule, heard, facts=list(dict.fromkeys(d.facts)),
                             choice=d.choice, ends_call=d.ends)  # fmt: skip
        if self.ends.check_answered(heard):  # 'Yes, your booking remains unchanged.'
            return self.follow.after_done(heard)
        if self.ends.refusal_stands(heard):
            return self.follow.after_refusal(text, heard, prefix=" ".join(d.parts))
        return self.follow.without_draft(text, heard, d)
