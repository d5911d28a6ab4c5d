"""The goal caller's ending phrase tables, one JSON file per language (data, not code)."""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, ConfigDict

from voxbench.pipelines.caller.goal.lang import either_form
from voxbench.spoken.tables import read_table


class EndingWords(BaseModel):
    """Patterns (regular expressions, matched without case) the ending logic reads."""

    model_config = ConfigDict(extra="forbid")

    still_can: str
    """A refusal's sentence that moves on to what the agent can still do ('We can still handle your
    on-call registration.'): it names a request the refusal does not refuse."""
    behaviour_intent: str
    """An intent that asks the agent not to do something ('Get the agent to skip the return
    authorization'): a completion that names its object is the thing done, not the intent met."""
    behaviour_with_request: str
    """A behaviour intent that also asks for the thing done ('Skip troubleshooting and get a ticket
    created'): an ordinary request, met by its completion."""
    agent_lead: str
    """An intent's lead that names the agent in the third person ('Get the agent to ...'), which a
    caller says to the agent as ``agent_lead_said`` ('Ask you to ...': 'I need to ask you to ...')."""
    agent_lead_said: str
    follow_up_named: str
    """A tree that names a follow-up question of the caller's own, counted ('ask exactly one
    follow-up question', 'after one follow-up question'); not the agent's ('until the agent asks
    follow-up questions'), which is no budget of the caller's."""
    before_ending: str
    """A line of the tree that asks the agent something before hanging up ('Before ending,
    explicitly ask the agent to confirm (1) ..., (2) ...'); group ``what``: what to ask."""
    enumeration: str
    """A list's numbering inside a sentence ('(1) ', '(2) '), left out when the sentence is said."""
    transfer_under_way: str
    """A transfer said as under way, not offered ('Please hold while I transfer you to a live
    agent.', 'You're being transferred.'): EVA's caller leaves once the transfer is initiated."""
    goodbye_open_lead: str
    named_done: str
    """A sentence saying a thing is finished ('... is done', 'has been taken care of', 'I've taken
    care of'): a completion when the sentence names one of the caller's requests by its own words
    (:meth:`.ending.Endings.named_done`)."""
    report_filler: str
    """Words of a completion report that name no subject ('has', 'been', 'successfully'),
    one alternation: left out when a report's subject is read (:meth:`.scope.Scope.other_done`)."""
    """What the caller says before its open request when the agent says goodbye with it open."""
    all_done: str
    """A completion whose subject is the whole call ('Everything is complete.', 'You're all done
    now.'): every request still open is done, whichever the agent names after it. Not 'All done.'
    nor 'It's all done': said of the request in hand as often ('All done, that's been taken care
    of. Anything else?' after the first of three), and a caller that took it for the whole call
    ended with two requests open (weak turns ``end_done_unnamed_open``); read as the request in
    hand, the worst is one turn more ('That's done too.')."""
    kept: str
    offer_stated: str
    """Where a statement offers what the agent can do ('..., but I can set up a callback instead',
    'What I can do is ...'): the offer runs from there to the sentence's end."""
    offer_vague: str
    offer_wish: str
    """A condition that is the caller's own wish ('If you'd like', 'if you want', 'if that helps'):
    the clause it goes with offers something (:mod:`.offered`)."""
    offer_can: str
    """What the agent can do for the caller, said as a statement ('I can place you ...', 'I could
    check ...', 'You can choose ...'), up to the verb offered (or the first thing chosen): groups
    ``who`` (the agent: 'i' or 'we') and ``modal``, or ``you``. Not what it can see, tell or confirm."""
    offer_choice: str
    """Two things offered in one clause ('either ... or ...')."""
    more_lead: int
    """Words of a clause that may come before its "anything else?" cue and still have it lead the
    clause ('is there', 'before we go, will'): :mod:`.ifmore`."""
    more_clause_break: str
    """Where a new clause begins inside a sentence that holds "anything else?" (', and could you
    ...', ', or what is ...', ' and may I ...'): a conjunction or comma before an auxiliary, a
    wh-word, 'please' or a subject, not the commas and 'and' that list values (:mod:`.ifmore`)."""
    action_to_come: str
    """A turn that says the agent's action is still to come ('Before I submit it, let me read that
    back', 'Once you confirm I will submit it', 'I've opened a draft request'): a read-back in it
    asks leave to act, and its yes never closes the call (:meth:`.ending.Endings.confirmed_last`)."""
    told_accept: str
    """A tree line saying to accept being told something ('If told to visit HR in person or call back
    later, accept that ...'); group ``what``: what is told (:mod:`.told`)."""
    then_end: str
    """What follows ``told_accept`` when the line also says to end the call ('... and end the call')."""
    told_rest: str
    """The end of a ``what`` that is no part of what the agent tells ('for any part of this request')."""
    agent_error: str
    """The agent (or its system) says it met an error ('I encountered an error processing your request')."""
    conditional_lead: str
    """A sentence that opens with a condition ('If you find it, call back ...'): what to do once
    something changes, not a thing the caller is told to accept now."""
    try_again: str
    """The agent says it will try again after an error ('Let me try that again.')."""
    call_transfer: str
    """Words that name a transfer of the call ('transfer you', 'a live agent', 'a supervisor',
    'transfers'), not a transfer of a record ('the DEA transfer'): :mod:`.transfers`."""
    offer_own_words: str
    """The words a transfer offer is made of ('transfer you', 'a live agent', 'call you back', 'stay
    on the line'): what the offer says of itself, never of one of the caller's requests, whatever
    words they share ('on-call'): :meth:`.state.CallState.speaks_of`."""
    clause_break: str
    """Where a sentence's clause ends, for the scope of a negation ('I can't renew it, but I can
    transfer you.')."""
    negation: str
    """A negation word ('can't', 'not', 'no', 'unable')."""
    new_subject: str
    """A subject and its modal that open a new clause without a comma ('If you do not want to
    continue I can transfer you'): a negation before it does not reach past it."""
    negated_after: str
    """What follows a transfer's words and negates them ('Transfers aren't available', 'a live
    agent is not available')."""
    condition_lead: str
    """Where a conditional clause begins ('if', 'unless', 'in case'; not 'as if'): a negation in it
    is the condition's own (:mod:`.conditions`)."""
    main_clause: str
    """A subject and its modal that begin a main clause after a condition said without a comma
    ('If you'd rather not wait a live agent can call you back.')."""
    fails_transfer: str
    """A failure condition's alternative that names a transfer the agent will not make ('If the
    agent refuses to transfer you', 'if the agent says transfer is impossible'): :mod:`.transfers`."""
    failure_alternative: str
    """Where one alternative of a failure condition ends and the next begins (', or if ...')."""
    attempts_count: str
    """A failure condition's count of attempts ('after two clear search attempts', 'after 3
    attempts', 'after two clear requests'); group ``n``: each refusal of the request spends one
    (:mod:`.attempts`)."""
    times_asked: str
    """How many of the caller's requests an alternative counts ('after two clear requests',
    'after you have requested escalation twice'); group ``n`` or ``m``."""
    fails_unprocessable: str
    """A failure condition that ends the call when the agent says the request cannot be processed
    and there are no alternatives (:func:`.told.no_alternative`)."""
    no_alternative: str
    """The agent says there is no alternative ('There are no alternatives available', 'There's
    nothing else I can do')."""
    """An offer question naming nothing of its own ('Would you like that?', 'Would that work?'):
    it asks about the offer the turn stated."""
    """A must-have that something stays as it is ('Your booking remains unchanged'): the agent
    must say so, like something it gives."""


@cache
def ending_words(language: str = "en") -> EndingWords:
    """The tables of ``language`` (``ending_lang/<language>.json``); a clear error if there are none."""
    return read_table(__package__, f"{language}.json", EndingWords, "goal/ending_lang")


@cache
def pattern(name: str, language: str = "en") -> re.Pattern[str]:
    """One table entry compiled (``name`` a field of :class:`EndingWords`), its contractions
    heard in either form (:func:`~voxbench.pipelines.caller.goal.lang.either_form`)."""
    return re.compile(either_form(getattr(ending_words(language), name), language), re.I)
