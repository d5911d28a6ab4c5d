"""When the goal caller's call ends, apart from the follow-ups' own goodbyes (:mod:`.followups`:
every request and must-have resolved, or a refusal's answers spent): the agent transfers or says
goodbye; a transfer the escalation rule forbids, offered once the caller has nothing left to
answer a refusal with, or offered again with nothing moved on; and the two readings that decide
whether the call goes on: a check before hanging up answered, a refusal that stands after a
push-back. Each ending act carries its reason (:data:`.acts.END_REASONS`)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.acting import ActLog
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.classify import Heard
from voxbench.pipelines.caller.goal.drafts import Draft
from voxbench.pipelines.caller.goal.state import CallState


class Endings:
    """The end logic over one call's :class:`.state.CallState`."""

    def __init__(self, state: CallState, log: ActLog) -> None:
        self.s = state
        self.log = log

    def note_refusal(self) -> None:
        """A refusal naming one of the caller's requests: the tree's answers to it are that
        request's own (:meth:`.pushback.PushBacks.for_request`)."""
        if self.s.refused_now:
            self.s.push.for_request(min(self.s.refused_now))

    def agent_ends(self, heard: Heard) -> CallerAct | None:
        """The agent transfers or says goodbye: end the call."""
        if heard.has("transfer"):
            return self.log.act("end", self.s.phr.say("bye"), "transfer_ends_call", heard, ends_call=True)
        if heard.has("goodbye") and not heard.has("request") and not heard.readback_wrong:  # corrected first
            return self.log.act("end", self.s.phr.say("bye"), "agent_goodbye", heard, ends_call=True)
        return None

    def check_answered(self, heard: Heard) -> bool:
        """The agent's statement answering what the caller checked before hanging up (its must-haves
        not yet told): the check is done, as a completion is, whatever the words."""
        return (
            bool(self.s.acts)
            and self.s.acts[-1].rule == "must_have_not_told"
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
        and goodbye. A first offer is only declined: the agent may still find another way."""
        again = self.s.declined_at is not None and self.s.declined_at == self.s.progress()
        pending, about = self.s.tracker.pending(), self.s.push.about
        # no other request to move on to: none open, or only the one the refusal answers went to
        alone = not pending or (len(pending) == 1 and (pending[0] == about or (about is None and not self.s.refused)))
        spent = self.s.push.spent() and alone
        if not spent and (not again or self.s.push.pushes_left()):
            self.s.declined_at = self.s.progress()
            return None
        heard.rules.append("refusal_answers_spent" if spent else "transfer_offered_again")
        text = f"{' '.join(d.parts)} {self.s.phr.say('bye')}"
        return self.log.act("end", text, "declined_transfer_end", heard, choice="no", ends_call=True)
