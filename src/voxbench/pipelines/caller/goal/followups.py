"""The goal caller's follow-ups: what it says when the agent's turn asks for no fact, choice or
confirmation (refusals, completions, "anything else?", troubleshooting steps, holds, open
questions, statements), and when it ends the call: only with every request and must-have
resolved or failed by the tree's own conditions (:mod:`.intents`, :mod:`.agenda`), else with the
reason it gives up (:mod:`.stall`)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal import rules
from voxbench.pipelines.caller.goal.acting import ActLog, about
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.cues import REPEAT_Q, SPELL_Q
from voxbench.pipelines.caller.goal.drafts import Draft
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.followcues import (
    MORE_OFFERED,
    ONE_MORE,
    SAID_LEAD,
    WHAT_ELSE,
    YES_THEN_WORD,
    invites_list,
    must_haves,
)
from voxbench.pipelines.caller.goal.heard import ANYTHING_ELSE_OFFERED, THAT_ALL_ASKED, Heard
from voxbench.pipelines.caller.goal.holds import HOLD
from voxbench.pipelines.caller.goal.intents import intent_facts
from voxbench.pipelines.caller.goal.moveon import declined_then_next
from voxbench.pipelines.caller.goal.openask import names_thing
from voxbench.pipelines.caller.goal.phrases import PHRASES, as_need, first_person
from voxbench.pipelines.caller.goal.pushback import step_fixes
from voxbench.pipelines.caller.goal.requests import Requests
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.pipelines.caller.goal.transfers import refused_before
from voxbench.pipelines.caller.goal.unanswered import Unanswered
from voxbench.spoken import sentences_of


def that_all(heard: Heard) -> bool:
    """'Will that be all for today?': a yes ends the call, a no leads what is still open."""
    return THAT_ALL_ASKED in heard.rules


def said_not_asked(heard: Heard) -> bool:
    """The agent's "anything else?" came as a statement ('If you have any other questions, feel
    free to ask.'): a caller answers it with thanks or 'Actually, ...', not with yes or no."""
    return ANYTHING_ELSE_OFFERED in heard.rules and not heard.has("question")


class FollowUps:
    """The caller's replies when its turn's draft holds no answer, choice or confirmation."""

    def __init__(self, state: CallState, log: ActLog, req: Requests) -> None:
        self.s = state
        self.log = log
        self.req = req
        self.ask = Unanswered(state, log, req)

    def without_draft(self, text: str, heard: Heard, d: Draft) -> CallerAct:
        """No answer, choice or confirmation to give: refusals, completions, steps, holds, open questions."""
        # refused, or one request refused while another is reported done ('I can't transfer the DEA
        # record without the number. Your onboarding update is complete.'): the tree's answer first
        done = self.s.reports_done(heard)
        refused = heard.has("denial") and (not done or bool(self.s.refused_now))
        if refused and (heard.has("anything_else") or self.s.refused_now) and self.s.push.left():
            return self.after_refusal(text, heard, prefix=" ".join(d.parts))
        if self.asks_rest(heard):  # told part of what it called to find out: the rest only
            return self.ask_rest(heard, bool(MORE_OFFERED.match(heard.question)))
        if done and heard.has("hold") and not heard.has("anything_else"):
            return self.log.act("wait", "", "next_step_waits", heard)
        if done or heard.has("anything_else") or (self.s.learn.new and self.s.learn.complete):
            return self.after_done(heard)
        if heard.has("troubleshoot"):
            fixed = step_fixes(self.s.rules, text)
            self.s.stuck = 0
            return self.log.act("report", self.s.phr.say("fixed" if fixed else "not_fixed"),
                             "tree_step_fixes" if fixed else "tree_step_does_not_fix", heard,
                             choice="fixed" if fixed else "not_fixed")  # fmt: skip
        if heard.has("denial"):
            return self.after_refusal(text, heard, prefix=" ".join(d.parts))
        if d.kind == "decline_transfer":
            return self.log.act(d.kind, " ".join(d.parts), d.rule, heard, choice=d.choice)
        if heard.has("hold") or heard.has("courtesy"):
            return self.log.act("wait", "", "hold_waits" if heard.has("hold") else "courtesy_waits", heard)
        if REPEAT_Q.search(heard.question or text):
            said = self.repeat(heard)
            if said is not None:
                return said
        if heard.has("willing_question"):
            return self.log.act(
                "confirm", self.s.phr.say("yes_ready"), "willing_says_yes", heard, choice="yes"
            )
        if (
            heard.has("open_question")
            and names_thing(heard.question)
            and (said := self.ask.open_answer(heard))
        ):
            return said  # 'What room do you need?': the goal's words for it, not every request
        if heard.has("open_question"):
            one = bool(ONE_MORE.search(heard.question))
            line, told, what = self.req.line(one)
            return self.log.act("state_request", line, "state_request", heard, what, facts=told)
        if heard.has("question"):
            return self.ask.unanswerable(heard)
        return self.acknowledge(heard)

    def repeat(self, heard: Heard) -> CallerAct | None:
        """'Can you try again?' / 'Could you repeat that?': the facts of its last answer once more
        (spelled when asked to spell); None when it has given none."""
        last = next((a for a in reversed(self.s.acts) if a.facts), None)
        if last is None:
            return None
        line = (
            self.s.say.spelled(last.facts)
            if SPELL_Q.search(heard.question)
            else self.s.say.answer(last.facts)
        )
        return self.log.act("answer", line, "repeat_last_facts", heard, facts=last.facts)

    def asks_rest(self, heard: Heard) -> bool:
        """Part of the caller's question is answered and the agent asks what it needs, offers more,
        or has just told a part: the caller asks for the parts still missing (:mod:`.learn`)."""
        if not self.s.learn.partial or heard.has("denial"):
            return False
        return (
            heard.has("open_question")
            or heard.has("anything_else")
            or bool(MORE_OFFERED.match(heard.question))
            or (self.s.learn.new and not heard.has("question"))
        )

    def ask_rest(self, heard: Heard, yes: bool = False) -> CallerAct:
        """'Thanks. I still need to know the gate.': the untold parts, in the goal's own words
        ('Yes, I still need to know ...' to an offer to tell more)."""
        missing = self.s.learn.missing()
        what = " and ".join(m[:1].lower() + first_person(m)[1:] for m in missing)
        choice = " and ".join(missing)
        # asked before for these parts alone, it adds nothing to them: no 'also' ('ask_rest_again')
        again = any(a.rule == "ask_what_is_missing" and a.choice == choice for a in self.s.acts)
        kind = "ask_rest_again" if again else "ask_rest"
        yes_line = PHRASES["ask_rest_yes"][0]  # one wording: no seeded draw
        line = (
            self.s.phr.say_as(yes_line, "ask_rest_yes", what=what) if yes else self.s.phr.say(kind, what=what)
        )
        return self.log.act("state_request", line, "ask_what_is_missing", heard, choice=choice)

    def after_done(self, heard: Heard) -> CallerAct:
        self.s.stuck = 0
        pending = self.s.tracker.pending()
        if pending and (heard.has("anything_else") or not heard.has("question")):
            if not any(self.s.tracker.done):  # 'Anything else?' before its first request is done: that one
                return self.still_open(pending[0], heard)
            line, told = self.req.next_line(pending[0])
            if not heard.has("anything_else") or said_not_asked(heard) or that_all(heard):  # no 'Yes'
                lead = "No." if that_all(heard) else "Thanks."  # a report asks nothing
                line = YES_THEN_WORD.sub(lambda m: f"{lead} {m.group(1).upper()}", line)
            return self.log.act("state_request", line, "next_intent", heard, about(pending[0]), facts=told)
        if pending and (moved := declined_then_next(self.s, self.req, self.log, heard)):
            return moved  # 'Done. Can I set up reminders?': no thanks, and its next request
        named = self.s.tracker.named(heard.question) if heard.has("open_question") else None
        if named is not None:  # 'Now, what PTO question can I help with?': the request it names
            others = [x for j, x in enumerate(self.s.intents) if j != named]
            told = [f.key for f in intent_facts(self.s.intents[named], self.s.book, others)]
            line = f"{as_need(self.s.plain[named])}. {self.s.say.answer(told)}".strip()
            return self.log.act("state_request", line, "named_intent", heard, about(named), facts=told)
        # 'Let me check. Anything else?': the check asked is asked once more, before the next must-have
        if heard.has("anything_else") and self.check_unanswered(heard):
            lead = "Yes." if not said_not_asked(heard) else "Thanks."
            asked = self.s.agenda.ask_again()
            line = f"{'No.' if that_all(heard) else lead} {asked}"
            return self.log.act("state_request", line, rules.MUST_HAVE_ASKED_AGAIN, heard, must_haves(asked))
        if self.s.agenda.open_items() and not heard.has("denial"):  # before goodbye: a must-have untold
            lead = "Yes." if heard.has("anything_else") and not said_not_asked(heard) else "Thanks."
            asked = self.s.agenda.ask(invites_list(heard))
            line = f"{'No.' if that_all(heard) else lead} {asked}"
            return self.log.act("state_request", line, rules.MUST_HAVE_NOT_TOLD, heard, must_haves(asked))
        if heard.has("anything_else"):  # offered in a statement: thanks, not 'no'
            kind = (
                "bye_that_all" if that_all(heard) else "bye_done" if said_not_asked(heard) else "bye_nothing"
            )
            bye = self.s.phr.say(kind)
            return self.log.act("end", bye, "nothing_else_end", heard, ends_call=True)
        if heard.has("question"):
            return self.ask.unanswerable(heard)
        return self.log.act("end", self.s.phr.say("bye_done"), "resolution_end", heard, ends_call=True)

    def check_unanswered(self, heard: Heard) -> bool:
        """The caller's check before hanging up (its must-haves not told) answered only by an
        action said as to come ('Let me check on that for you. Is there anything else ...?'):
        EVA's caller asks for confirmation where it is unclear the agent has finished, and "I'm
        processing that" is no completion. Asked once more (its last line was the check); a turn
        that reports anything done, or states more than that action, answers it."""
        last = self.s.acts[-1] if self.s.acts else None
        if last is None or last.rule != rules.MUST_HAVE_NOT_TOLD or self.s.reports_done(heard):
            return False
        said = [x for x in sentences_of(self.s.agent_turn) if not x.endswith("?")]
        return bool(said) and all(HOLD.match(x) for x in said) and bool(self.s.agenda.last_unanswered())

    def after_refusal(self, text: str, heard: Heard, prefix: str = "") -> CallerAct:
        self.s.stuck += 1
        nxt = self.s.push.next_line(text)
        if nxt is not None:
            return self.log.act("pushback", f"{prefix} {nxt[0]}", nxt[1], heard)
        if (fb := self.req.fallback_line(prefix)) is not None:  # 'floor 3 if floor 2 is full'
            return self.log.act(
                "state_request", fb[0], "fallback_after_refusal", heard, about(fb[2]), facts=fb[1]
            )
        if heard.has("question") and self.s.stuck < self.s.config.give_up_after:
            return self.ask.unanswerable(heard)
        pending, moved = self.s.tracker.pending(), len(self.s.tracker.pending()) < self.s.pending_before
        # still about a request refused before ('the petition number'), or answering the push-backs
        # said to one no longer open (a refusal naming none: :meth:`.ending.Endings.note_refusal`): the next one
        about_ = self.s.push.about
        moved = moved or any(self.s.tracker.mentions(i, text) for i in self.s.refused)
        moved = moved or (about_ is not None and about_ not in pending)
        restated = bool(self.s.acts) and self.s.acts[-1].kind == "state_request" and not self.s.acts[-1].facts
        # a request just stated is refused by this turn, and so failed, unless the turn speaks of a
        # request closed before and not of it ('I still can't do the swap.'): then it is still to answer
        under = self.s.under_way()
        restated = restated and not (
            under is not None
            and any(self.s.speaks_of(j) for j in self.s.refused if j != under)
            and not self.s.speaks_of(under)
        )
        if pending and (moved or len(pending) >= 2) and not restated:  # that one failed: the next
            self.s.tracker.done[pending[0]] = not moved  # (moved: the refusal named the one it refused)
            i = self.s.tracker.pending()[0]
            line, told = self.req.next_line(i)
            if heard.has("transfer_offer") or not heard.question:  # no 'Yes' to a refusal that asks nothing
                lead = prefix or self.s.phr.say("decline_transfer") if heard.has("transfer_offer") else prefix
                line = f"{lead} " + YES_THEN_WORD.sub(lambda m: m.group(1).upper(), line)
            return self.log.act(
                "state_request", line, "next_intent_after_refusal", heard, about(i), facts=told
            )
        return self.give_up(heard)

    def declined_next(self, heard: Heard, d: Draft, failed: int | None, i: int) -> CallerAct:
        """'No thanks, I don't need a transfer. One more thing: I need to ...': a transfer the
        escalation rule forbids, offered again with nothing moved on, request ``i`` open and not
        taken up (EVA: decline, and 'let the agent try another path'): the request under way
        (``failed``, None: none) has failed, and ``i`` is stated (:meth:`.ending.Endings.after_declining`)."""
        if failed is not None:
            self.s.tracker.done[failed] = True
        line, told = self.req.next_line(i)
        text = f"{' '.join(d.parts)} " + YES_THEN_WORD.sub(lambda m: m.group(1).upper(), line)
        return self.log.act(
            "state_request", text, "next_intent_after_transfer_declined", heard, about(i), facts=told
        )

    def give_up(self, heard: Heard) -> CallerAct:
        """The refusal stands and the tree's answers to it are spent: goodbye, as its failure
        condition says; but where the escalation rule asks for a transfer once refused ('ask to be
        transferred to a live agent'), the caller asks for one first, once, unless the agent has
        said it cannot transfer the call (:mod:`.transfers`). Where the failure condition counts
        the caller's requests ('after two clear requests'), it asks that many times."""
        asked = sum(a.rule in rules.TRANSFER_RULES for a in self.s.acts)
        if (
            self.s.rules.accept_transfer
            and not self.s.push.met()  # the failure condition's count of attempts met: it holds
            and asked < max(1, self.s.transfer_fails[1])
            and not refused_before([heard.rules, *(a.rules for a in self.s.acts)])
        ):
            return self.log.act("pushback", self.s.phr.say("ask_transfer"), rules.ASKS_TRANSFER, heard)
        return self.log.act(
            "end", self.s.phr.say("bye_give_up"), "failure_condition_end", heard, ends_call=True
        )

    def acknowledge(self, heard: Heard) -> CallerAct:
        """'Okay.' to a statement; a statement right after one is no progress: the open request
        once more, then goodbye (live: 'I'm glad I could help...' / 'Okay.' looped to the limit). A
        statement after the caller asked for a transfer, where the failure condition counts those
        requests ('after two clear requests'), is a transfer not made: asked again, or goodbye."""
        last = self.s.acts[-1] if self.s.acts else None
        if last is not None and (
            (last.kind == "pushback" and not self.s.push.left() and not self.s.tracker.pending())
            or (self.s.transfer_fails[1] and last.rule == rules.ASKS_TRANSFER)
        ):
            return self.give_up(heard)
        if self.s.acts and self.s.acts[-1].kind in ("acknowledge", "state_request") and self.s.turn > 1:
            self.s.stuck += 1
            if self.s.stuck >= self.s.config.give_up_after:
                return self.log.act(
                    "end", self.s.phr.say("bye_give_up"), "no_progress_end", heard, ends_call=True
                )
            if self.s.tracker.pending() and self.s.acts[-1].kind == "acknowledge":
                line, told, what = self.req.line(True)
                return self.log.act(
                    "state_request", line, "restate_after_statements", heard, what, facts=told
                )
        return self.log.act("acknowledge", self.s.phr.say("ok"), "acknowledge_statement", heard)

    def before_goodbye(self, i: int, heard: Heard) -> CallerAct:
        """'Before you go, I need to schedule a return-to-work check-in.': the agent says
        goodbye with request ``i`` open (once a call: :meth:`.ending.Endings.agent_ends`)."""
        line, told, what = (
            self.req.line(True) if self.s.tracker.pending()[:1] == [i] else (*self.req.next_line(i), about(i))
        )
        line = SAID_LEAD.sub("", line)
        first = line if line.startswith("I ") else line[:1].lower() + line[1:]
        text = f"{pattern('goodbye_open_lead').pattern} {first}"
        return self.log.act("state_request", text, "agent_goodbye_request_open", heard, what, facts=told)

    def still_open(self, i: int, heard: Heard) -> CallerAct:
        """'Yes, my request isn't done yet: I want to add ...' ('Actually, ...' to an offer said as a
        statement, 'If you have any other questions, feel free to ask.'), with the request's
        details (said again, it is bounded like any request: :data:`.stall.LIMITS`)."""
        line = self.s.phr.say("still_open", intent=as_need(self.s.plain[i]))
        line = line if line.startswith("I ") else line[:1].lower() + line[1:]
        details, told = self.req.details(i)
        # a report of something else asks nothing: no yes to it ('Your first name has been updated.')
        told_only = said_not_asked(heard) or not heard.question.strip()
        lead = "" if WHAT_ELSE.match(heard.question) else "Actually," if told_only else "Yes,"
        lead = "No," if that_all(heard) else lead
        text = f"{lead} {line} {details}".strip()
        return self.log.act("state_request", text, "request_still_open", heard, about(i), facts=told)
