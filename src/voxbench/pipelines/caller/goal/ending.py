"""When the goal caller's call ends, apart from the follow-ups' own goodbyes (:mod:`.followups`:
every request and must-have resolved, or a refusal's answers spent): the agent transfers or says
goodbye; a transfer the escalation rule forbids, offered once the caller has nothing left to
answer a refusal with, or offered again with nothing moved on; and the two readings that decide
whether the call goes on: a check before hanging up answered, a refusal that stands after a
push-back. Each ending act carries its reason (:data:`.acts.END_REASONS`)."""

from __future__ import annotations

from collections.abc import Callable

from voxbench.pipelines.caller.goal.acting import ActLog
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.closeread import action_to_come, only_question, unmatched_values
from voxbench.pipelines.caller.goal.cues import COMPLETED, NEXT_STEP, NOT_DONE
from voxbench.pipelines.caller.goal.drafts import Draft
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.followcues import invites_list, must_haves
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.ledger import NAMED_DONE
from voxbench.pipelines.caller.goal.requests import read_back_only
from voxbench.pipelines.caller.goal.rules import CONFIRM_READBACK, MUST_HAVE_ASKED_AGAIN, MUST_HAVE_NOT_TOLD
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.pipelines.caller.goal.told import agent_error, no_alternative, tells, told_to_end
from voxbench.pipelines.caller.goal.transfers import TRANSFER_REFUSED
from voxbench.spoken import sentences_of

CONFIRMED_LAST_END = "confirmed_all_done_end"
"""The rule of :meth:`Endings.confirmed_last` (reason ``resolved``, :data:`.acts.END_REASONS`)."""

RaiseOpen = Callable[[int, Heard], CallerAct]
"""Says one open request before the agent hangs up (:meth:`.followups.FollowUps.before_goodbye`)."""
DeclineNext = Callable[[Heard, Draft, int | None, int], CallerAct]
"""Declines a transfer, counts the request under way failed and states another open one
(:meth:`.followups.FollowUps.declined_next`)."""


class Endings:
    """The end logic over one call's :class:`.state.CallState`."""

    def __init__(
        self,
        state: CallState,
        log: ActLog,
        raise_open: RaiseOpen | None = None,
        decline_next: DeclineNext | None = None,
    ) -> None:
        self.s = state
        self.log = log
        self.raise_open = raise_open
        self.decline_next = decline_next
        self.raised_at_goodbye = False
        tree = state.scenario.user_goal.decision_tree
        self.told = told_to_end([*tree.negotiation_behavior, *tree.edge_cases, tree.escalation_behavior or "",
                                 tree.failure_condition or ""])  # fmt: skip
        """What the tree says to accept being told and end the call on (:mod:`.told`)."""
        self.unprocessable = bool(pattern("fails_unprocessable").search(tree.failure_condition or ""))
        """The failure condition ends the call on a refusal with no alternative (:func:`.told.no_alternative`)."""

    def note_refusal(self, heard: Heard) -> None:
        """A refusal naming one of the caller's requests: the tree's answers to it are that
        request's own (:meth:`.pushback.PushBacks.for_request`). One naming none ('I'm sorry, I
        can't do that either.') refuses the request under way (:meth:`.state.CallState.under_way`),
        where the caller stated one: the answers the tree gave another request's refusal are not
        this one's, and its failure condition is not met by them. One that speaks of another
        request, even by one of its words ('I still can't do the swap.', after the caller moved on
        from the swap: :meth:`.state.CallState.speaks_of_other`), is that one's refusal again, not
        the request under way's: the budget stays where it is. A refusal that offers, asks or
        reports nothing is one attempt of the request under way spent (:mod:`.attempts`)."""
        under = self.s.under_way()
        if self.s.refused_now:
            self.s.push.for_request(min(self.s.refused_now))
        elif heard.has("denial") and under is not None and not self.s.speaks_of_other(under):
            self.s.push.for_request(under)
        if heard.has("denial") and not {"options", "request", "completed"} & set(heard.kinds):
            self.s.push.refused()

    def named_done(self, heard: Heard) -> int | None:
        """'Your request to report your VPN issue is done.': a statement that names one of the
        caller's open requests by the words that tell it apart and says it is finished, not
        negated nor conditional, in a turn that asks nothing but "anything else?" or an offer of
        something its goal never mentions ('Would you like text alerts as well?'), or a read-back of
        its own values, all right ('To confirm, I have ... Is that correct?': it checks what was
        done, :meth:`confirmed_last`), is a completion
        even where the completion cues do not read its words (they read 'it is done', not 'your X
        is done'). A turn that goes on to the next step reports a step ('Your malpractice update
        is complete. Now let's review your DEA record ...'), as the completion cues leave it.

        Returns the request named (None: none); the caller's ledger resolves it (:mod:`.ledger`)
        and reads the turn as a completion from there, the classification left as heard."""
        kinds = set(heard.kinds)
        if {"completed", "denial", "request", "options"} & kinds:
            return None
        # a turn going on to the next step asks more than "anything else?"; an offer beside the
        # report of something no goal asks for does not (:mod:`.moveon`), read once a request is named
        # its own values read back right after the report check what was done: no next step
        checks = "readback" in kinds and not heard.readback_wrong and not heard.asked
        asks = ("confirm_question" in kinds and not checks) or (
            "question" in kinds and "anything_else" not in kinds
        )
        tracker = self.s.tracker
        for x in sentences_of(self.s.agent_turn):
            m = None if x.endswith("?") else next(reversed(list(pattern("named_done").finditer(x))), None)
            if m is None or NOT_DONE.search(
                x[m.end() :]
            ):  # 'is done once ...'; the request's words may hold 'after'
                continue
            named = [i for i in tracker.pending() if tracker.own_words(i) and tracker.mentions(i, x)]
            if named and (not asks or self.s.scope.outside(self.s.agent_turn, heard.question)):
                return named[0]
        return None

    def note_named_done(self, heard: Heard) -> None:
        """The request this turn names finished (:meth:`named_done`), resolved in the ledger."""
        i = self.named_done(heard)
        if i is not None:
            self.s.ledger = self.s.ledger.resolve(i, "done", NAMED_DONE, self.s.turn)

    def agent_ends(self, heard: Heard) -> CallerAct | None:
        """The agent transfers (or says a transfer is under way: 'Please hold while I transfer you')
        or says goodbye: end the call. A goodbye with one of its requests still open gets that
        request once first (EVA's caller confirms there is nothing outstanding before it ends);
        the next goodbye ends the call."""
        if heard.has("transfer") or self.transfer_under_way():
            return self.log.act("end", self.s.phr.say("bye"), "transfer_ends_call", heard, ends_call=True)
        if heard.has("goodbye") and not heard.has("request") and not heard.readback_wrong:  # corrected first
            open_ = [i for i in self.s.tracker.pending() if not self.s.tracker.behaviour[i]]
            if open_ and self.raise_open is not None and not self.raised_at_goodbye:
                self.raised_at_goodbye = True
                return self.raise_open(open_[0], heard)
            return self.log.act("end", self.s.phr.say("bye"), "agent_goodbye", heard, ends_call=True)
        return None

    def agent_fails(self, heard: Heard) -> CallerAct | None:
        """A failure case that ends the call at once (:mod:`.told`): the agent's own error, in a turn
        that asks for nothing and reports nothing done; a refusal that tells the caller what its
        tree says to accept and end the call on ('You'll need to visit HR in person.'); a transfer
        refused where the failure condition ends the call on that ('if the agent says transfer is
        impossible, say goodbye': :func:`.transfers.transfer_failure`)."""
        turn = self.s.agent_turn
        if agent_error(turn) and not {"request", "completed", "options"} & set(heard.kinds):
            rule = "agent_error_end"
        elif heard.has("denial") and tells(self.told, turn):
            rule = "told_to_end"
        elif self.unprocessable and self.nothing_else(heard):
            rule = "no_alternative_end"
        elif self.s.transfer_fails[0] and TRANSFER_REFUSED in heard.rules:
            rule = "transfer_refused_end"  # 'or if the agent says transfer is impossible, say goodbye
        else:
            return None
        return self.log.act("end", self.s.phr.say("bye_give_up"), rule, heard, ends_call=True)

    def nothing_else(self, heard: Heard) -> bool:
        """A refusal that says there is no alternative, offers and asks nothing, with no other
        request of the caller's open: the failure condition's 'cannot be processed and there are
        no alternatives' (a request still open beside it is the tree's next step, not the end)."""
        offered = {"request", "completed", "options", "transfer_offer", "transfer", "hold", "question"}
        if not heard.has("denial") or offered & set(heard.kinds):
            return False
        others = [i for i in self.s.tracker.pending() if i not in self.s.refused_now]
        others = others if self.s.refused_now else others[1:]  # naming none, it refuses the one under way
        return not others and no_alternative(self.s.agent_turn)

    def transfer_under_way(self) -> bool:
        """A statement (no question after it) saying the transfer is happening now."""
        sents = sentences_of(self.s.agent_turn)
        hit = [n for n, x in enumerate(sents) if pattern("transfer_under_way").search(x)]
        return bool(hit) and not any(x.endswith("?") for x in sents[hit[0] :])

    def confirmed_last(self, heard: Heard, d: Draft) -> CallerAct | None:
        """A report, then its values read back right and confirmed ('Your request for a new monitor
        is submitted. To confirm, your employee ID is ... Is that correct?'), with every request
        done and every must-have told: nothing is left to ask, so the yes closes the call ('Yes,
        that's correct. Thanks for your help. Goodbye.'), as EVA's reference callers confirm and
        close. A bare yes leaves the call to an agent that asked its last question (live: it never
        ended).

        Only where nothing may still change: this turn marks the last open request(s) done by name
        (:meth:`named_by_report`), not a step said done ('I've verified your identity', 'Your case
        number is ...') that the one request left was read as; the turn says no action still to
        come ('Before I submit it, let me read that back', 'Once you confirm I will submit it':
        ``action_to_come``, a read-back asking leave to act); every value the read-back says is one
        of the caller's facts read back right (:func:`.closeread.unmatched_values`: 'a 24-inch
        monitor' beside a right employee ID is no closing read-back); and its question is the
        turn's only one (a second may be an offer, 'Would you also like a docking station?', that
        a closing yes would accept). Else the yes stays bare, as before. A turn that also asks,
        offers, refuses or holds by its classification is answered as it is; a request still open
        keeps the call going. With a must-have not yet told, the yes comes with the check before
        hanging up instead."""
        if (
            d.rule != CONFIRM_READBACK
            or d.choice != "yes"
            or heard.readback_wrong
            or not self.s.reports_done(heard)
        ):
            return None
        if {"request", "options", "denial", "transfer_offer", "transfer", "hold"} & set(heard.kinds):
            return None
        if (
            self.s.tracker.pending()
            or not self.s.done_now
            or not all(map(self.named_by_report, self.s.done_now))
        ):
            return None
        turn = self.s.agent_turn
        if (
            action_to_come(turn)
            or not only_question(turn)
            or unmatched_values(turn, self.s.book, heard.readback_ok)
        ):
            return None
        if self.s.agenda.open_items():  # before goodbye, the must-haves not yet told (:mod:`.followups`)
            asked = self.s.agenda.ask(invites_list(heard))
            text = f"{' '.join(d.parts)} {asked}"
            return self.log.act("state_request", text, MUST_HAVE_NOT_TOLD, heard, must_haves(asked), facts=d.facts,
                                choice="yes")  # fmt: skip
        text = f"{' '.join(d.parts)} {self.s.phr.say('bye_done')}"
        return self.log.act(
            "end", text, CONFIRMED_LAST_END, heard, facts=d.facts, choice="yes", ends_call=True
        )

    def named_by_report(self, i: int) -> bool:
        """Whether the agent turn being answered marks request ``i`` done by name: named finished
        (:meth:`named_done`, a ledger entry of this turn), or said by the words that tell it apart
        (:meth:`.intents.IntentTracker.says`) in one of its report sentences, one that is no
        question, no read-back and no next step. A completion that names no request ('All set, I
        found your record.') is read as the one in hand, which is a guess a closing yes must not
        rest on."""
        entry = self.s.ledger.entries[i] if i < len(self.s.ledger.entries) else None
        if entry is not None and entry.how == NAMED_DONE and entry.turn == self.s.turn:
            return True
        return any(
            not x.endswith("?")
            and not read_back_only(x)
            and not NEXT_STEP.search(x)
            and bool(COMPLETED.search(x) or pattern("named_done").search(x))
            and self.s.tracker.says(i, x)
            for x in sentences_of(self.s.agent_turn)
        )

    def check_answered(self, heard: Heard) -> bool:
        """The agent's statement answering what the caller checked before hanging up (its must-haves
        not yet told), first or asked again: the check is done, as a completion is, whatever the words."""
        return (
            bool(self.s.acts)
            and self.s.acts[-1].rule in (MUST_HAVE_NOT_TOLD, MUST_HAVE_ASKED_AGAIN)
            and not {"question", "request", "options", "denial", "hold"} & set(heard.kinds)
        )

    def refusal_stands(self, heard: Heard) -> bool:
        """The agent's answer to a push-back that completes nothing new and refuses or offers a
        transfer: the refusal stands ('The return authorization is required for every laptop
        replacement ... I can transfer you.'), and the tree's next answer to it comes, not thanks
        for a completion the agent restated."""
        return (
            bool(self.s.acts)
            and self.s.acts[-1].kind == "pushback"
            and self.s.push.left()
            and (heard.has("denial") or heard.has("transfer_offer"))
            and not {"request", "options"} & set(heard.kinds)
            and len(self.s.tracker.pending()) == self.s.pending_before
        )

    def after_declining(self, heard: Heard, d: Draft) -> CallerAct | None:
        """A transfer the escalation rule forbids, offered again with nothing moved on since the
        caller declined the last one and the tree's push-backs said: the agent has said it cannot
        go on, which is the failure condition (EVA's caller declines and ends on the next turn: 'if
        they have already offered a transfer, they have signaled they cannot proceed'). Declined,
        and goodbye. A first offer is only declined: the agent may still find another way; so is
        the first offer once the caller has moved on to another request (:attr:`.state.CallState.declined_at`).
        Either way only with no other request to move on to: one the agent has neither done nor
        refused (nor spoken of in the offer, by words not the offer's own:
        :meth:`.state.CallState.speaks_of`) is one it has not said it cannot proceed with (EVA:
        decline, and 'let the agent try another path'), so the caller declines and goes on with it:
        offered again, the request under way has failed and the next is stated
        (:meth:`.followups.FollowUps.declined_next`)."""
        now = (self.s.progress(), self.s.under_way())
        again = self.s.declined_at == now  # the same request, nothing moved on
        pending, about = self.s.tracker.pending(), self.s.push.about
        # no other request to move on to: none open but the one the refusal answers went to (naming
        # none, the one under way)
        under = about if about is not None else pending[0] if pending and not self.s.refused else None
        others = [i for i in pending if i != under]
        alone = not others
        spent = self.s.push.spent()
        if not spent and (not again or self.s.push.pushes_left()):
            self.s.declined_at = now
            return None
        # another request open that this turn does not speak of: one the agent has not taken up
        # (one it speaks of it has answered or refused, in words the tracker may not read as such)
        untaken = [i for i in others if not self.s.speaks_of(i)]
        if not alone and (not again or untaken):
            self.s.declined_at = now
            if again and self.decline_next is not None:
                return self.decline_next(heard, d, under, untaken[0])
            return None  # the refusal's answers spent: its next step (:meth:`.followups.FollowUps.after_refusal`)
        heard.rules.append("refusal_answers_spent" if spent else "transfer_offered_again")
        text = f"{' '.join(d.parts)} {self.s.phr.say('bye')}"
        return self.log.act("end", text, "declined_transfer_end", heard, choice="no", ends_call=True)
