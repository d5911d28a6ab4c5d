"""What the caller says to a question that comes after a completion report, with another of its
requests still open: the report is what the turn is about, and the question beside it (an offer
of something its goal does not ask for, 'Would you like me to sign you up for text alerts?'; a
courtesy it has no answer to, 'Can I set up payment reminders?') is declined, and the next
request follows in the same breath, as a person with more to do says it: "No, thanks. One more
thing: I also need ...". A caller that only declined left the agent with nothing to do, and one
that said "I don't know" to a courtesy left its next request unsaid (weak turns
``end_done_offer_open``). EVA's caller prompt: decline what is beyond the stated goal; end only
when every requested action is done."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.acting import ActLog, about
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.followcues import YES_THEN_WORD
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.requests import Requests
from voxbench.pipelines.caller.goal.state import CallState


def next_after_report(s: CallState, req: Requests, heard: Heard) -> tuple[str, list[str], str] | None:
    """The next open request's line with no 'Yes' first, its facts and what it states
    (:func:`.acting.about`), when this turn reports something done and a request other than an
    in-call behaviour is open; None otherwise."""
    pending = [i for i in s.tracker.pending() if not s.tracker.behaviour[i]]
    if not pending or not s.reports_done(heard) or heard.has("denial"):
        return None
    line, told = req.next_line(pending[0])
    return YES_THEN_WORD.sub(lambda m: m.group(1).upper(), line), told, about(pending[0])


def courtesy_question(s: CallState, heard: Heard) -> bool:
    """An offer of something its goal never mentions (:meth:`.scope.Scope.outside`: 'Before we go
    on, can I set up payment reminders?'), asking for none of its facts and naming no field it
    lacks: a courtesy, which a caller with more to do declines."""
    q = heard.question
    if not q or heard.lacking or heard.has("request") or heard.has("options"):
        return False
    return s.scope.outside(s.agent_turn, q)


def declined_then_next(s: CallState, req: Requests, log: ActLog, heard: Heard) -> CallerAct | None:
    """'No, thanks. One more thing: I need ...' to a courtesy question after a completion report
    (:func:`courtesy_question`), another request open; None when that is not the turn."""
    if not heard.has("question") or not courtesy_question(s, heard):
        return None
    nxt = next_after_report(s, req, heard)
    if nxt is None:
        return None
    line = f"{s.phr.say('no_thanks')} {nxt[0]}"
    return log.act("state_request", line, "courtesy_declined_next_intent", heard, nxt[2], facts=nxt[1])
