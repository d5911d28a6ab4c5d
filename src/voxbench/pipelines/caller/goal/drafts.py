"""The parts of a reply that answer what the agent's turn asks: the asked facts, a correction of a
wrong read-back, an option, a yes or no to a confirmation or offer, a transfer accepted or
declined. Each adds to one :class:`Draft`, so a turn that asks two things gets both in one act."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.acting import ActLog
from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.choose import say_option, value_names
from voxbench.pipelines.caller.goal.corrections import CORRECTIONS_CAP, GAVE_UP
from voxbench.pipelines.caller.goal.cues import SPELL_Q
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import Fact, stem
from voxbench.pipelines.caller.goal.forms import YES_AND_VALUE
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.hearing import times_said
from voxbench.pipelines.caller.goal.identity import identity_answer
from voxbench.pipelines.caller.goal.intents import GENERIC
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.moveon import next_after_report
from voxbench.pipelines.caller.goal.options import option_clause
from voxbench.pipelines.caller.goal.phrases import as_need, first_person
from voxbench.pipelines.caller.goal.present import present_line
from voxbench.pipelines.caller.goal.records import route_mates
from voxbench.pipelines.caller.goal.refusals import REFUSES_FACT
from voxbench.pipelines.caller.goal.requests import Requests
from voxbench.pipelines.caller.goal.rules import (
    ACCEPTS_TRANSFER,
    CONFIRM_OFFER,
    CONFIRM_READBACK,
    OFFER_OUTSIDE_GOAL,
)
from voxbench.pipelines.caller.goal.scope import about_transfer, stated_offer
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.pipelines.caller.goal.tree import content_words, offer_text, violations
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.pipelines.caller.goal.volunteer import (
    change_parts,
    constraints_for,
    fallback_for_offer,
    offers_what_it_wants,
    touched_preferences,
)
from voxbench.spoken import mentions

# An option said as a yes/no clause ('is it locked'); not 'would'/'will' (``questions.wish_aux``):
# 'Would you like to do your I-9 next, or ...?' names the option as a wish: 'My I-9 next, please.'
_AUX = re.compile(rf"({alt('questions', 'auxiliary')})\b", re.I)

# A yes/no question about what the caller prefers or wants ('Do you prefer window?').
_PREFER_Q = re.compile(
    r"^(?!(?:what|which|how|when|where|who|why)\b)(?:\w+[,.]?\s+)?(do|would|will) you (prefer|want|like|need)\b(?! me\b)(?! to\b)[^?]*\?$",
    re.I,
)


@dataclass
class Draft:
    """The act being put together from the parts of one agent turn (answer, choice, confirmation)."""

    parts: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    kind: ActKind | None = None
    rule: str = ""
    choice: str = ""
    ends: bool = False


class Drafts:
    """Adds to a turn's :class:`Draft` what its asks call for."""

    def __init__(self, state: CallState, log: ActLog, req: Requests) -> None:
        self.s = state
        self.log = log
        self.req = req

    def refuse(self, heard: Heard) -> Heard:
        """The turn with the facts its tree refuses taken out of its ask; what the caller says for
        them kept for :meth:`answer` (:mod:`.refusals`)."""
        heard.asked, _ = self.s.refusals.hold(list(heard.asked), self.s.phr)
        return heard

    def answer(self, heard: Heard, d: Draft) -> None:
        """Exactly the asked facts (a yes first when the turn also read facts back right); for
        those its tree refuses, what the tree says instead."""
        if self.s.refusals.now and not heard.asked:  # every fact asked is one its tree refuses
            d.parts += self.s.refusals.now
            d.facts += self.s.refusals.told
            d.kind, d.rule = "refuse", REFUSES_FACT
            return
        if heard.readback_ok and heard.has("confirm_question") and not heard.readback_wrong:
            d.parts.append(self.s.phr.say("yes"))
            d.choice = "yes"
        elif offers_what_it_wants(self.s.book, heard.question) or YES_AND_VALUE in heard.rules:
            # 'Would you like an aisle seat again?', 'Do you have a floor preference?': yes, and the value
            d.parts.append("Yes.")
            d.choice = "yes"
        keys = self.s.say.in_asked_order(list(heard.asked), heard.question or self.s.agent_turn)
        # an ask naming several fields (not one field of several records) gets those and no other
        several = len({f.words for k in keys if (f := self.s.book.get(k)) is not None}) > 1
        mates = route_mates(self.s.book, keys, self.s.agent_turn)  # 'the origin? Destination.'
        keys = self.s.say.with_companions(keys, self.s.agent_turn)  # 'Lima' -> 'Ana Lima'
        keys += self.s.bundles.extra(keys, self.s.given)  # a step's others: 'provide A, B and C'
        keys = [k for k in keys if not self.s.refusals.held(k)]
        if several:  # those the turn names only ('the building code and floor for delivery')
            keys = [
                k for k in keys if k in heard.asked or k in mates or self._named(k) or self._name_of(k, keys)
            ]
        d.parts.append(self.s.say.answer(keys, heard.question, heard.asked, self.s.agent_turn))
        if SPELL_Q.search(heard.question):  # 'Can you spell your last name?': and letter by letter
            words = [
                k
                for k in heard.asked
                if (f := self.s.book.get(k)) and re.fullmatch(r"[A-Za-z' -]+", str(f.value))
            ]
            d.parts.append(self.s.say.spelled(words) if words else "")
        d.facts += keys
        if not several:  # the change wanted: its part of the booking, what stays, its limits
            self.change(keys, d)
        limits = [k for k in constraints_for(self.s.book, self.s.given, keys)
                  if k not in d.facts and (not several or self._named(k))]  # fmt: skip
        if limits:
            d.parts.append(self.s.say.answer(limits))
            d.facts += limits
        self.not_held(heard, d)
        d.kind, d.rule = "answer", "answer_asked_facts"
        d.parts[:0], d.facts[:0] = self.s.refusals.now, self.s.refusals.told
        self.refused_value(heard, d)

    def not_held(self, heard: Heard, d: Draft) -> None:
        """Beside the facts asked, each field asked that it does not hold said so, with what it has
        in its place (:mod:`.unheld`); the date or time of the call asked, said (:mod:`.present`)."""
        for lacked, stand in heard.unheld.items():
            sorry = self.s.phr.say("dont_have_field", field=lacked)
            if stand and set(stand) <= set(d.facts):  # its facts answered it: what it lacks first
                d.parts.insert(0, sorry)
                continue
            d.parts.append(sorry)
            offer = [k for k in stand if k not in d.facts]
            if offer:
                d.parts.append(self.s.say.answer(offer))
                d.facts += offer
        if heard.present:
            d.parts.append(present_line(heard.present, self.s.scenario.current_date_time or "", self.s.phr))
        d.parts = [p for p in d.parts if p]

    def _named(self, key: str) -> bool:
        """Whether the agent's requests say every word of the fact's field ('delivery building' in
        'the building code and floor for delivery'; not 'first name' in 'your last name')."""
        f = self.s.book.get(key)
        t = Turn.of(self.s.agent_turn)
        said = {stem(w) for w in re.findall(r"[a-z]+", " ".join(t.questions + t.requests).lower())}
        return f is not None and bool(f.words) and {stem(w) for w in f.words} <= said

    def _name_of(self, key: str, keys: list[str]) -> bool:
        """Whether the fact is the first name of a last name asked: a name is said whole ('Clara
        Johansson'), as EVA's reference callers do beside a confirmation number (leaving it out
        lost a request on the test half: measured, not kept)."""
        f = self.s.book.get(key)
        twins = [[w if w != "last" else "first" for w in g.words] for k in keys if (g := self.s.book.get(k))]
        return f is not None and "first" in f.words and "name" in f.words and list(f.words) in twins

    def refused_value(self, heard: Heard, d: Draft) -> None:
        """Asked again for a value the agent has just said it could not find ('I could not find a
        DEA record for G O 362 6181. Please read the DEA number once more.'): the value, then the
        tree's answer to the refusal (its one follow-up), as a person says the number and asks
        whether there is another way; the refusal is heard in the same turn, not the next."""
        stated = " ".join(Turn.of(self.s.agent_turn).statements)  # not an option the question lists
        if (
            not heard.has("denial")
            or not heard.asked
            or not all(
                (f := self.s.book.get(k)) is not None and any(mentions(stated, v) for v in f.values())
                for k in heard.asked
            )
        ):
            return
        text = self.s.agent_turn
        nxt = self.s.push.next_line(text)
        if nxt is not None:
            d.parts.append(nxt[0])
            d.rule = f"answer_asked_facts+{nxt[1]}"

    def change(self, keys: list[str], d: Draft) -> None:
        """Stating the change it wants: which part of the booking, and what stays (once a call)."""
        route, stays, part = change_parts(self.s.book, keys)
        if not (route or stays) or set(route + stays) <= self.s.given | set(d.facts):
            return
        d.parts.append(self.s.say.change(route, stays, part))
        d.facts += [k for k in route + stays if k not in d.facts]

    def correction(self, heard: Heard, d: Draft) -> None:
        """No, and the right values; a value the agent took from another of its facts is said to be
        that one ('No, that's not right. David Park is my husband's name. My name is ...'). The
        same correction again in a row says it was said ('As I mentioned, ...'), the no still
        first: the read-back it answers is new; once too often, a no and goodbye (:mod:`.corrections`)."""
        wrong = [k for k in heard.readback_wrong if not self.s.refusals.held(k)]  # never a refused fact
        content = tuple(sorted((k, self.s.say.value(f)) for k in wrong if (f := self.s.book.get(k))))
        times = self.s.corrections.times_now(content)
        if times > CORRECTIONS_CAP:
            d.parts, d.facts = [self.s.phr.say("bye_corrected", times=times_said(times - 1))], []
            d.kind, d.rule, d.choice, d.ends = "end", GAVE_UP, "no", True
            return
        whose = [o for k in dict.fromkeys(heard.misheard.get(k, "") for k in wrong)
                 if k and (o := self.s.book.get(k)) is not None]  # fmt: skip
        said = " ".join([*(self.s.say.whose(o) for o in whose), self.s.say.answer(wrong)])
        said = said.strip() or self.s.phr.say("refuse_fact")  # each wrong value one it refuses
        d.parts.append(self.s.phr.say("correct", fact=self.s.phr.again(said) if times > 1 else said))
        d.facts += wrong
        d.kind, d.rule, d.choice = "correct", "correct_wrong_readback", "no"
        self.s.corrections.draft(self.s.turn, content, times)

    def option_named(self, heard: Heard, d: Draft) -> None:
        """Options offered with a request: name the option only when a fact or the goal picks it."""
        picked, why = self.s.chooser.choose(heard.options)
        said = why.split(":", 1)[1] if why.startswith("option_matches_fact:") else ""
        if said in self.s.given or said in heard.asked:  # the option just repeats a fact already said
            picked = ""
        if picked and why.startswith(("option_matches_fact", "option_matches_goal")):
            d.parts.append(say_option(picked, heard.question, self.s.phr))
            d.rule, d.choice = f"{d.rule}+{why}", picked

    def option(self, heard: Heard, d: Draft) -> None:
        """The option the criteria pick (with what goes with it), or no and the first must-have."""
        picked, why = self.s.chooser.choose(heard.options, heard.question)
        if not picked:
            d.parts.append(self.req.refuse_line())
            d.kind, d.rule, d.choice = "refuse", "no_option_meets_goal", "none"
            return
        described = (
            self.s.book.get(why.split(":", 1)[1]) if why.startswith("option_closest_to_fact:") else None
        )
        if described is not None:  # said in its own words: 'Can't connect to the corporate Wi-Fi at all.'
            said = described.spoken().rstrip(".")
            if re.match(r"(can't|cannot|can not|unable|don't|do not|keep|have|am)\b", said, re.I):
                said = f"I {said[:1].lower()}{said[1:]}"
            d.parts.append(f"{said[:1].upper()}{said[1:]}.")
            d.facts.append(described.key)
        elif why == "option_is_next_request" and not re.match(_AUX, option_clause(heard.question, picked)):
            # 'My I-9 next, please.', not 'I'd like to payroll.' (a clause 'is it locked, or...' stays a statement)
            name = first_person(
                re.sub(r"^(do|handle|start with|take care of|go with)\s+", "", picked, flags=re.I)
            )
            d.parts.append(f"{name[:1].upper()}{name[1:]}, please.")
        elif (
            f := self._acronym_fact(why, picked, heard.question)
        ) is not None:  # 'general paid time off': 'P T O, please.'
            d.parts.append(self.s.phr.say("choose", option=self.s.say.value(f)))
            d.facts.append(f.key)
        else:
            d.parts.append(say_option(picked, heard.question, self.s.phr))
        d.kind, d.rule, d.choice = "choose", why, picked
        nxt = self.s.tracker.rank(picked) if why == "option_is_next_request" else None
        if nxt is not None:  # choosing one of its requests, the caller says it, and what it needs there
            need = as_need(self.s.plain[nxt])
            if not content_words(need) - GENERIC <= content_words(picked):
                d.parts.append(f"{need}.")
            details, told = self.req.details(nxt, later=True)
            d.parts.append(details)
            d.facts += told
        touched = touched_preferences(self.s.book, self.s.given, picked)
        if touched:
            d.parts.append(self.s.say.answer(touched))
            d.facts += touched

    def _acronym_fact(self, why: str, option: str, question: str) -> Fact | None:
        """The fact an option was chosen by, when its value is an acronym the option spells out and
        the option says little else (:func:`.choose.value_names`): a person names the choice by it
        ('PTO' for 'general paid time off'), not 'request PTO for honeymoon'."""
        f = self.s.book.get(why.split(":", 1)[1]) if why.startswith("option_matches_fact:") else None
        if f is None or str(f.value).lower() not in self.s.say.acronyms:
            return None
        return f if value_names(str(f.value), option, question) else None

    def confirm(self, text: str, heard: Heard, d: Draft) -> None:
        """Yes to a right read-back or an offer that meets the must-haves; no and the broken one otherwise."""
        bad = violations(self.s.rules, offer_text(text, heard.question))
        if bad:
            d.parts.append(self.req.refuse_line(bad))
            d.kind, d.rule, d.choice = "refuse", "offer_breaks_must_have", "no"
            return
        if d.kind is not None:
            return
        ident = identity_answer(heard.question, self.s.book, self.s.say)
        if ident is not None:  # 'Can you verify who you are?': its identifying facts, not a yes
            d.parts.append(ident[0])
            d.facts += ident[1]
            d.kind, d.rule = "answer", "identity_gives_identifiers"
            return
        readback = heard.has("readback") and not re.search(
            r"\b(would you like|shall i|do you want|submit|proceed|go ahead|book|approv)",
            heard.question,
            re.I,
        )
        # 'What I can do is set up X. Would that work?': a question about the offer, not the read-back
        readback = readback and not (pattern("offer_vague").match(heard.question) and stated_offer(text))
        pref = self.preference_offered(heard) if readback else None
        if pref is not None:  # 'Do you prefer window?': its choice, not 'Yes, that's correct.'
            d.parts.append(f"Yes, {pref.spoken()}, please.")
            d.kind, d.rule, d.choice = "choose", "offered_its_preference", pref.spoken()
            return
        if not readback and self.s.scope.outside(text, heard.question):
            if not self.s.tracker.pending() and not {"denial", "transfer_offer"} & set(heard.kinds):
                # every request done, nothing refused here (live bb.2: 'Do you want to add bags?'
                d.parts.append(self.s.phr.say("no_thanks_bye"))  # eight times): decline once and end
                d.kind, d.rule, d.choice, d.ends = "end", "offer_outside_goal_all_done_end", "no", True
                return
            d.parts.append(self.s.phr.say("no_thanks"))
            d.kind, d.rule, d.choice = "refuse", OFFER_OUTSIDE_GOAL, "no"
            nxt = next_after_report(self.s, self.req, heard)  # a report with it: the next request too
            if nxt is not None:
                d.parts.append(nxt[0])
                d.facts += nxt[1]
                d.rule = "offer_outside_goal_next_intent"
            return
        fallback = None if readback else fallback_for_offer(self.s.book, self.s.given, heard.question)
        if (
            fallback is not None and (f := self.s.book.get(fallback)) is not None
        ):  # 'Yes, please check F L three.'
            d.parts.append(f"Yes, please check {f.spoken()}.")
            d.facts.append(fallback)
        else:
            d.parts.append(self.s.phr.say("yes" if readback else "yes_go"))
        if readback:
            self.change(heard.readback_ok, d)
        touched = (
            touched_preferences(self.s.book, self.s.given, text)
            if not readback
            else constraints_for(self.s.book, self.s.given, heard.readback_ok)
        )
        if touched:  # accepting an offer states the ranked preferences it touches; a read-back of
            d.parts.append(self.s.say.answer(touched))  # the change wanted, the limits that go with it
            d.facts += touched
        d.kind = "confirm"
        d.rule = CONFIRM_READBACK if readback else CONFIRM_OFFER
        d.choice = "yes"

    def preference_offered(self, heard: Heard) -> Fact | None:
        """The caller's preference (a fact it wants, a ranked or named preference) that a yes/no
        question about what it prefers names ('Do you prefer window?': live bb.2, where the
        agent's 'window, aisle, or middle?' reached the caller cut after its first option)."""
        if not _PREFER_Q.match(heard.question):
            return None
        for key in heard.readback_ok:
            f = self.s.book.get(key)
            if f is not None and (f.wanted or {"preference", "choice"} & set(f.words)):
                return f
        return None

    def transfer(self, heard: Heard, d: Draft) -> CallerAct | None:
        """A transfer offer: accepted (the act) or declined (added to the draft), as the escalation rule says."""
        about = about_transfer(heard.question, heard.has("transfer_offer"))
        if not heard.has("transfer_offer") or not (about or d.kind is None) or d.kind == "answer":
            return None
        if self.s.rules.accept_transfer:
            return self.log.act("accept_transfer", self.s.phr.say("accept_transfer"), ACCEPTS_TRANSFER,
                             heard, choice="yes")  # fmt: skip
        if not heard.has("denial") or about:
            d.parts.append(self.s.phr.say("decline_transfer"))
            d.kind = d.kind or "decline_transfer"
            d.rule = d.rule or "escalation_declines_transfer"
            d.choice = d.choice or "no"
        return None
