"""How an act is made and recorded: one place where the same line said again is bounded
(:class:`.stall.Repeats`: this content, to this ask, with no progress since) and where an act
that ends the call gets its reason (``end:<reason>``, :data:`.acts.END_REASONS`)."""

from __future__ import annotations

from typing import Any

from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.belong import shared_kind
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.hearing import SPELLED_MISHEARD, times_said
from voxbench.pipelines.caller.goal.rules import ASK_TAG, ASKS_TRANSFER, LACKING_RULES, TRANSFER_RULES
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.pipelines.caller.goal.transfers import refused_before

_BY_NAME = ("name", "distinctive")
"""The rules of :mod:`.asks` by which a request names a fact by its own words."""


REQUESTS = "requests:"


def about(*requests: int) -> str:
    """Which of its requests a line states: what a request said again is counted by
    (:class:`.stall.Repeats`), whatever its phrasing and the details that come with it."""
    return REQUESTS + ",".join(map(str, requests))


class ActLog:
    """Makes each act of the call and records it in the call's state."""

    def __init__(self, state: CallState) -> None:
        self.s = state

    def act(
        self, kind: ActKind, text: str, rule: str, heard: Heard | None = None, about: str = "", **kw: Any
    ) -> CallerAct:
        """The act, recorded, unless :class:`.stall.Repeats` says it is once too often (``about``:
        which requests a request line states, :func:`about`)."""
        act = CallerAct(
            turn=self.s.turn,
            kind=kind,
            text=text.strip(),
            rule=rule,
            rules=[*(heard.rules if heard else []), *self.s.ledger.rules_at(self.s.turn), rule],
            classifier=next(
                (
                    "llm:" + r.rsplit(":", 1)[-1]
                    for r in [*(heard.rules if heard else []), rule]
                    if "llm:" in r
                ),
                "rules",
            ),
            heard=self.s.heard_kinds(heard) if heard else [],
            **kw,
        )
        question, before = heard.question if heard else "", self.s.progress()
        verdict = self.s.repeats.verdict(act, about, self.s.agent_turn, question, before) if heard else ""
        hear = self.s.hearings
        if heard is not None:
            hear.hear(self.s.turn, heard, self.s.given, self.s.agent_turn)
            self.s.corrections.hear(heard)
        if verdict == "echo":
            return self.said_already(heard, act, about)
        said = {k: self.s.say.value(f) for k in act.facts if (f := self.s.book.get(k)) is not None}
        spell = hear.to_spell(act.facts, self.s.book, act.text, said) if hear.misheard else []
        if verdict == "loop" and any(k not in hear.spelled for k in spell):
            verdict = "again"  # a person spells the value before giving up (:mod:`.hearing`)
        if verdict == "loop":
            return self.act("end", self.given_up(act, about), "same_content_again_end", heard, ends_call=True)
        if verdict == "again":  # 'As I said, my confirmation code is ...'
            act.text, act.rules = self.s.phr.again(act.text), [*act.rules, "said_before"]
        if spell:  # 'It's Okafor, O K A F O R.'
            act.text = hear.spell(act.text, spell, self.s.book, said, self.s.phr)
            act.rules = [*act.rules, SPELLED_MISHEARD]
        if act.ends_call:
            self.s.ended = True
            act.rules = [*act.rules, f"end:{act.end_reason}"]
        self.s.given.update(act.facts)
        self._own(act)
        self.s.acts.append(act)
        self.s.corrections.said_in(act)
        if about.startswith(REQUESTS):  # under way until another is stated (:attr:`.state.CallState.stated`)
            self.s.stated = int(about.removeprefix(REQUESTS).split(",")[0])
        self.s.repeats.note(act, about, self.s.agent_turn, question, before, self.s.progress())
        return act

    def given_up(self, act: CallerAct, about: str) -> str:
        """The goodbye to the same content once too often, counting the tellings as they were:
        facts by the acts that gave them, a request by the times it was said ('I've asked that
        twice now.', never 'a few times' after two)."""
        if act.facts:
            n = sum(1 for a in self.s.acts if set(act.facts) <= set(a.facts))
            return self.s.phr.say("bye_repeated", times=times_said(n))
        return self.s.phr.say("bye_reasked", times=times_said(self.s.repeats.told(act, about)))

    def _pending_bye(self, act: CallerAct | None, about: str) -> str:
        """The goodbye to the same turn again with a request still open: what the caller's own
        line was says why it gives up (a lack it stated, a request it said again, else neither)."""
        if act is not None and act.rule in LACKING_RULES:
            return self.s.phr.say("bye_lacking_again")
        told = self.s.repeats.told(act, about) if act is not None and about.startswith(REQUESTS) else 0
        if told >= 2:
            return self.s.phr.say("bye_reasked", times=times_said(told))
        return self.s.phr.say("bye_give_up")

    def _own(self, act: CallerAct) -> None:
        """A fact the agent asked for by its own words while a request was in hand, of a kind the
        caller holds for more than one request ('delivery_floor', 'dispatch_floor'), serves that
        request (:mod:`.belong`). One asked by its kind alone ('the date') may be a misreading."""
        if self.s.in_hand is None:
            return
        named = {r.split(":")[1] for r in act.rules if r.startswith(ASK_TAG) and r.split(":")[2] in _BY_NAME}
        for k in act.facts:
            f = self.s.book.get(k)
            if f is not None and k in named and k not in self.s.owners and shared_kind(f, self.s.book):
                self.s.owners[k] = self.s.in_hand

    def said_already(self, heard: Heard | None, act: CallerAct, about: str) -> CallerAct:
        """The agent's turn again, after the caller already said its line to it: no second time,
        but the tree's next step: goodbye, with thanks when every request is done, else as its
        failure condition says (the agent cannot do it); a transfer its escalation rule forbids is
        declined in the same breath. Asked again for a thing it has said it does not hold, it says
        so again in its goodbye ('As I said, I don't have that.'), and after saying a request again
        it counts the times ('I've asked that twice now.', as :meth:`given_up` does), not 'Okay, I
        understand', which answers a refusal nobody made. A refusal said again where the escalation rule asks for a
        transfer gets that ask first, once (as :meth:`.followups.FollowUps.after_refusal` does)."""
        asked = any(a.rule in TRANSFER_RULES for a in self.s.acts)
        asked = asked or refused_before([heard.rules if heard else [], *(a.rules for a in self.s.acts)])
        if heard and heard.has("denial") and self.s.rules.accept_transfer and not asked:
            # the refusal again, where the escalation rule asks for a transfer: asked once, not goodbye
            return self.act("pushback", self.s.phr.say("ask_transfer"), ASKS_TRANSFER, heard)
        if heard and heard.has("transfer_offer") and not self.s.rules.accept_transfer:
            # the transfer offered again: declined, as its escalation rule says, not 'Perfect, thanks'
            text = f"{self.s.phr.say('decline_transfer')} {self.s.phr.say('bye')}"
        elif self.s.tracker.pending():
            text = self._pending_bye(act, about)
        else:
            text = self.s.phr.say("bye_nothing" if heard and heard.has("question") else "bye_done")
        return self.act("end", text, "same_line_again_end", heard, ends_call=True)
