"""The goal caller: decides each reply by its decision tree and says only its own facts.

``GoalCaller(scenario).open()`` gives the starting utterance; ``respond(agent_text)`` classifies
the agent's turn (:mod:`.classify`) and decides, in this order:

1. the agent transfers or says goodbye: end the call;
2. the agent asks for facts: give exactly those, codes spelled (:func:`.spoken.say_value`);
   reads a fact back wrong: correct it; asks a yes/no question: yes when the read-back or the
   offer meets the goal (:mod:`.tree` limits), no and the must-haves otherwise;
3. offers options: the one the criteria pick (limits, the tree's earliest/latest rule, the
   caller's ranked preferences, its facts, its goal's words);
4. offers a transfer: decline or accept, as the escalation rule says; offers something outside
   the goal: no, and goodbye with it when every request is done;
5. reports the task done (in words, or by stating the result it wants: :mod:`.results`; a goal
   that asks to find things out, when it has told each: :mod:`.learn`), or asks "anything else?"
   (or says it: 'If you have any other questions, feel free to ask'): the request still open (of a
   question half answered, only the parts not told), the next intent, or thanks and goodbye;
6. refuses: the tree's next scripted line, one follow-up question, then goodbye (failure);
7. a troubleshooting step: fixed or not, by the steps the tree says fix it;
8. a hold (or an action announced, 'I'll add a checked bag'): wait silently; a question it has
   no fact for: say so (it never invents one).

Whatever the rule, one rule bounds saying the same thing again (:class:`.stall.Repeats`: this
content, to this ask, with no progress since, a limit per kind of act): the same line once more to
the same agent turn gets goodbye instead, as the tree's failure condition does; facts or a request
said again come with 'As I said, ...', until said once too often with nothing moved on. Turns in a
row that bring no progress at all end the call too (:class:`.stall.Stalls`).

Deterministic for a seed (the seed only picks among equivalent phrasings).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.choose import OptionChooser, say_option
from voxbench.pipelines.caller.goal.classify import ChoiceClassifier, Heard, classify
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.cues import PROGRESS
from voxbench.pipelines.caller.goal.facts import Fact, FactBook, goal_facts
from voxbench.pipelines.caller.goal.followups import Draft, FollowUps, about
from voxbench.pipelines.caller.goal.intents import GENERIC, IntentTracker
from voxbench.pipelines.caller.goal.learn import Learnings
from voxbench.pipelines.caller.goal.options import option_clause
from voxbench.pipelines.caller.goal.phrases import Phrasing, as_need, first_person
from voxbench.pipelines.caller.goal.pushback import PushBacks
from voxbench.pipelines.caller.goal.say import FactSayer
from voxbench.pipelines.caller.goal.scope import Scope, about_transfer
from voxbench.pipelines.caller.goal.stall import DECISIONS, Progress, Repeats, Stalls
from voxbench.pipelines.caller.goal.tree import (
    TreeRules,
    content_words,
    offer_text,
    read_tree,
    violations,
)
from voxbench.pipelines.caller.goal.volunteer import (
    constraints_for,
    fallback_for_offer,
    offers_what_it_wants,
    touched_preferences,
)
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of, tokens

_AUX = re.compile(r"(is|are|was|were|do|does|did|has|have|can|could)\b", re.I)


# A yes/no question about what the caller prefers or wants ('Do you prefer window?').
_PREFER_Q = re.compile(
    r"^(?!(?:what|which|how|when|where|who|why)\b)(?:\w+[,.]?\s+)?(do|would|will) you (prefer|want|like|need)\b(?! me\b)(?! to\b)[^?]*\?$",
    re.I,
)


def _report(agent_text: str) -> str:
    """What an agent turn reports, whatever it asks: its statements' words (numbers as digits)."""
    return " ".join(t for s in sentences_of(agent_text) if not s.endswith("?") for t in tokens(s))


class GoalCaller(FollowUps):
    """A scripted-by-construction caller for one (culture-resolved) scenario."""

    def __init__(
        self, scenario: Scenario, config: GoalCallerConfig | None = None, hook: ChoiceClassifier | None = None
    ) -> None:
        self.scenario = scenario
        self.config = config or GoalCallerConfig()
        self.hook = hook
        goal = scenario.user_goal
        tree = goal.decision_tree
        self.book: FactBook = goal_facts(goal.information_required, scenario.seed_data)
        self.rules: TreeRules = read_tree(
            tree.must_have_criteria,
            tree.nice_to_have_criteria,
            tree.negotiation_behavior,
            tree.edge_cases,
            tree.escalation_behavior,
            goal.high_level_user_goal,
            tree.failure_condition,
        )
        self.phr = Phrasing(self.config.seed, scenario.user_config.user_persona)
        self.push = PushBacks(self.rules, self.config.follow_ups, self.phr)
        intents = [
            str(i.get("intent", ""))
            for i in (scenario.scenario_context.get("intents") or [])
            if isinstance(i, dict)
        ]
        self.intents = [i for i in intents if i] or [goal.high_level_user_goal]
        self.tracker = IntentTracker(self.intents)
        self.goal_text = goal.high_level_user_goal
        self.learn = Learnings(tree.must_have_criteria)
        self.done: list[bool] = self.tracker.done
        self.given: set[str] = set()
        self.acts: list[CallerAct] = []
        self.turn = 0
        self.ended = False
        self.opened = False
        self._stuck = 0
        self.stalls = Stalls(self.config.stall_limit)
        self.repeats = Repeats()
        self._reported: set[str] = set()  # what the agent said got done, tracked by the caller or not
        self._pending_before = len(self.intents)
        self._refused: set[int] = set()  # requests a refusal named (and so marked done)
        self._agent_turn = ""  # the agent turn being answered (until respond() takes the next one)
        self.say = FactSayer(self.book, self.phr)
        self.scope = Scope(
            [goal.high_level_user_goal, *self.intents, *tree.must_have_criteria, *tree.nice_to_have_criteria,
             *tree.negotiation_behavior, *tree.edge_cases, tree.resolution_condition, tree.failure_condition,
             scenario.starting_utterance() or ""],
            self.book,
        )  # fmt: skip
        self.chooser = OptionChooser(
            self.rules,
            self.book,
            self.tracker,
            [goal.high_level_user_goal, *tree.must_have_criteria, *tree.nice_to_have_criteria],
            hook,
        )

    @classmethod
    def from_resolved(cls, data: dict[str, Any], **kw: Any) -> GoalCaller:
        """From a culture-resolved scenario dict (``CallScenario.resolved()``, or a record's scenario.json)."""
        return cls(Scenario.model_validate(data), **kw)

    # -- acts ---------------------------------------------------------------------------------

    def _act(
        self, kind: ActKind, text: str, rule: str, heard: Heard | None = None, about: str = "", **kw: Any
    ) -> CallerAct:
        """The act, recorded, unless :class:`.stall.Repeats` says it is once too often (``about``:
        which requests a request line states, :func:`.followups.about`)."""
        act = CallerAct(
            turn=self.turn,
            kind=kind,
            text=text.strip(),
            rule=rule,
            rules=[*(heard.rules if heard else []), rule],
            classifier=next(
                (
                    "llm:" + r.rsplit(":", 1)[-1]
                    for r in [*(heard.rules if heard else []), rule]
                    if "llm:" in r
                ),
                "rules",
            ),
            heard=list(heard.kinds) if heard else [],
            **kw,
        )
        question, before = heard.question if heard else "", self._progress()
        verdict = self.repeats.verdict(act, about, self._agent_turn, question, before) if heard else ""
        if verdict == "echo":
            return self._said_already(heard)
        if verdict == "loop":
            return self._act(
                "end", self.phr.say("bye_repeated"), "same_content_again_end", heard, ends_call=True
            )
        if verdict == "again":  # 'As I said, my confirmation code is ...'
            act.text, act.rules = self.phr.again(act.text), [*act.rules, "said_before"]
        if act.ends_call:
            self.ended = True
        self.given.update(act.facts)
        self.acts.append(act)
        self.repeats.note(act, about, self._agent_turn, question, before, self._progress())
        return act

    def _progress(self) -> Progress:
        """What the call has moved on by, the one measure of progress (:mod:`.stall`): facts given,
        requests done, parts of its question told, decisions made (a choice or yes/no not made
        before), things the agent said got done (which the caller may not track), each once: an
        agent saying "That's done." again with the same question is not moving on."""
        decisions = {(a.kind, a.choice or a.text) for a in self.acts if a.kind in DECISIONS}
        told = sum(p.told for p in self.learn.parts)
        return len(self.given), sum(self.done), told, len(decisions), len(self._reported)

    def _said_already(self, heard: Heard | None) -> CallerAct:
        """The agent's turn again, after the caller already said its line to it: no second time,
        but the tree's next step: goodbye, with thanks when every request is done, else as its
        failure condition says (the agent cannot do it)."""
        if self.tracker.pending():
            text = self.phr.say("bye_give_up")
        else:
            text = self.phr.say("bye_nothing" if heard and heard.has("question") else "bye_done")
        return self._act("end", text, "same_line_again_end", heard, ends_call=True)

    def open(self) -> CallerAct:
        """The starting utterance (the opening line of the call)."""
        self.opened = True
        text = self.scenario.starting_utterance() or as_need(self.intents[0])
        return self._act("open", text, "starting_utterance")

    @property
    def end_reason(self) -> str | None:
        """The rule of the act that ended the call (None while it goes on): the CallerPolicy face."""
        return self.acts[-1].rule if self.ended and self.acts else None

    def respond(self, agent_text: str, t: float | None = None) -> CallerAct:
        """Decide the reply to one agent turn (timed in ``ms`` by the caller of this method;
        ``t``, the call time, is not used: the goal caller decides on words alone)."""
        self.turn += 1
        previous, self._agent_turn = self._agent_turn, agent_text
        heard = classify(agent_text, self.book, self.given, self.hook, self._focus(agent_text), previous)
        if not self.opened:
            self.opened = True
            text = self.scenario.starting_utterance() or as_need(self.intents[0])
            return self._act("open", text, "starting_utterance", heard)
        if heard.has("completed") or PROGRESS.search(agent_text):  # the agent got something done
            self._reported.add(_report(agent_text))
        self.stalls.note(self._progress())
        if self.stalls.spent:
            return self._act("end", self.phr.say("bye_give_up"), "stalled_call_end", heard, ends_call=True)
        act = self._decide(agent_text, heard)
        self.stalls.note(self._progress(), act.kind)
        return act

    def would_finish(self, agent_text: str) -> bool:
        """Whether this agent turn, a completion (or the last part of a question told), would leave
        none of the caller's requests open. Nothing changes: the live driver asks it to choose how
        long to wait before replying (``GoalSimConfig.done_wait_s``), before the turn is over."""
        if not self.opened or not self.tracker.pending():
            return False
        heard = classify(agent_text, self.book, self.given, None, self._focus(agent_text), self._agent_turn)
        tracker, learn = copy.deepcopy((self.tracker, self.learn))
        self._resolve(agent_text, heard, tracker, learn)
        told = heard.has("completed") or (learn.new and learn.complete)
        return told and not heard.has("denial") and not tracker.pending()

    # -- the decision ---------------------------------------------------------------------------

    def silence(self) -> CallerAct:
        """The agent has said nothing for a long while (it said "one moment" and went quiet): ask
        whether it is still there, and hang up the next time. A person does; and a caller that
        only waits leaves the call to the inactivity limit, with the agent's "one moment" as the
        last words, which EVA's gate counts as an unfinished simulation, not the agent's failure."""
        self.turn += 1
        self.stalls.count += 1
        if self.acts and self.acts[-1].kind == "check_in":
            return self._act("end", self.phr.say("bye_give_up"), "silence_after_check_in_end", ends_call=True)
        return self._act("check_in", self.phr.say("check_in"), "agent_silent_check_in")

    def _decide(self, text: str, heard: Heard) -> CallerAct:
        self._note_resolutions(text, heard)
        end = self._call_ending(heard)
        if end is not None:
            return end
        offered = self._offered_request(heard)
        if offered is not None and self.learn.partial:  # 'Would you like to know more about it?'
            return self._ask_rest(heard, yes=True)
        if offered is not None and not heard.has("request"):  # 'Would you like to do the shift swap now?'
            need = as_need(self.intents[offered])
            details, told = self._intent_details(offered)
            line = f"Yes. {need[:1].upper()}{need[1:]}. {details}".strip()
            return self._act(
                "state_request", line, "offered_request_yes", heard, about(offered), facts=told, choice="yes"
            )
        d = Draft()
        if heard.has("options") and self.tracker.orders(heard.options, heard.question):
            heard.kinds = [k for k in heard.kinds if k != "request"]  # 'Which first: I-9 or PTO?'
        if heard.has("request"):
            self._draft_answer(heard, d)
            if offered is not None and d.choice != "yes":
                d.parts.insert(0, "Yes.")
                d.choice = "yes"
            if heard.has("open_question"):  # 'What access requests do you need? Please give me the names.'
                line, told, _ = self._request_line()
                d.parts.insert(0, line)
                d.facts[:0] = told
        if heard.readback_wrong:
            self._draft_correction(heard, d)
        elif heard.has("options") and heard.has("request"):
            self._draft_option_named(heard, d)
        elif heard.has("options"):
            self._draft_option(heard, d)
        elif heard.has("confirm_question") and not about_transfer(
            heard.question, heard.has("transfer_offer")
        ):
            self._draft_confirm(text, heard, d)
        keys = [k for o in heard.earlier_options if (k := self.chooser.own_fact(o)) and k not in d.facts]
        d.parts[:0], d.facts[:0] = [self.say.answer(keys)] if keys else [], keys  # 'First setup, or...? And?'
        accepted = self._draft_transfer(heard, d)
        if accepted is not None:
            return accepted
        if d.kind is not None and d.kind != "decline_transfer":
            self._stuck = 0
            return self._act(d.kind, " ".join(d.parts), d.rule, heard, facts=list(dict.fromkeys(d.facts)),
                             choice=d.choice, ends_call=d.ends)  # fmt: skip
        return self._without_draft(text, heard, d)

    def _call_ending(self, heard: Heard) -> CallerAct | None:
        """The agent transfers or says goodbye: end the call."""
        if heard.has("transfer"):
            return self._act("end", self.phr.say("bye"), "transfer_ends_call", heard, ends_call=True)
        if heard.has("goodbye") and not heard.has("request"):
            return self._act("end", self.phr.say("bye"), "agent_goodbye", heard, ends_call=True)
        return None

    def _draft_answer(self, heard: Heard, d: Draft) -> None:
        """Exactly the asked facts (a yes first when the turn also read facts back right)."""
        if heard.readback_ok and heard.has("confirm_question") and not heard.readback_wrong:
            d.parts.append(self.phr.say("yes"))
            d.choice = "yes"
        elif offers_what_it_wants(self.book, heard.question):  # 'Would you like an aisle seat again?'
            d.parts.append("Yes.")
            d.choice = "yes"
        keys = self.say.with_companions(list(heard.asked))
        keys += [k for k in constraints_for(self.book, self.given, keys) if k not in keys]
        d.parts.append(self.say.answer(keys))
        d.facts += keys
        d.kind, d.rule = "answer", "answer_asked_facts"

    def _draft_correction(self, heard: Heard, d: Draft) -> None:
        fixes = [self.book.get(k) for k in heard.readback_wrong]
        said = " ".join(self.say.sentence(f) for f in fixes if f)
        d.parts.append(self.phr.say("correct", fact=said))
        d.facts += heard.readback_wrong
        d.kind, d.rule, d.choice = "correct", "correct_wrong_readback", "no"

    def _draft_option_named(self, heard: Heard, d: Draft) -> None:
        """Options offered with a request: name the option only when a fact or the goal picks it."""
        picked, why = self.chooser.choose(heard.options)
        said = why.split(":", 1)[1] if why.startswith("option_matches_fact:") else ""
        if said in self.given or said in heard.asked:  # the option just repeats a fact already said
            picked = ""
        if picked and why.startswith(("option_matches_fact", "option_matches_goal")):
            d.parts.append(say_option(picked, heard.question, self.phr))
            d.rule, d.choice = f"{d.rule}+{why}", picked

    def _draft_option(self, heard: Heard, d: Draft) -> None:
        """The option the criteria pick (with what goes with it), or no and the first must-have."""
        picked, why = self.chooser.choose(heard.options, heard.question)
        if not picked:
            d.parts.append(self._refuse_line())
            d.kind, d.rule, d.choice = "refuse", "no_option_meets_goal", "none"
            return
        described = self.book.get(why.split(":", 1)[1]) if why.startswith("option_closest_to_fact:") else None
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
        else:
            d.parts.append(say_option(picked, heard.question, self.phr))
        d.kind, d.rule, d.choice = "choose", why, picked
        nxt = self.tracker.rank(picked) if why == "option_is_next_request" else None
        if nxt is not None:  # choosing one of its requests, the caller says it, and what it needs there
            need = as_need(self.intents[nxt])
            if not content_words(need) - GENERIC <= content_words(picked):
                d.parts.append(f"{need}.")
            details, told = self._intent_details(nxt)
            d.parts.append(details)
            d.facts += told
        touched = touched_preferences(self.book, self.given, picked)
        if touched:
            d.parts.append(self.say.answer(touched))
            d.facts += touched

    def _draft_confirm(self, text: str, heard: Heard, d: Draft) -> None:
        """Yes to a right read-back or an offer that meets the must-haves; no and the broken one otherwise."""
        bad = violations(self.rules, offer_text(text, heard.question))
        if bad:
            d.parts.append(self._refuse_line(bad))
            d.kind, d.rule, d.choice = "refuse", "offer_breaks_must_have", "no"
            return
        if d.kind is not None:
            return
        readback = heard.has("readback") and not re.search(
            r"\b(would you like|shall i|do you want|submit|proceed|go ahead|book|approv)",
            heard.question,
            re.I,
        )
        pref = self._preference_offered(heard) if readback else None
        if pref is not None:  # 'Do you prefer window?': its choice, not 'Yes, that's correct.'
            d.parts.append(f"Yes, {pref.spoken()}, please.")
            d.kind, d.rule, d.choice = "choose", "offered_its_preference", pref.spoken()
            return
        if not readback and self.scope.outside(text, heard.question):
            if not self.tracker.pending() and not {"denial", "transfer_offer"} & set(heard.kinds):
                # every request done, nothing refused here (live bb.2: 'Do you want to add bags?'
                d.parts.append(self.phr.say("no_thanks_bye"))  # eight times): decline once and end
                d.kind, d.rule, d.choice, d.ends = "end", "offer_outside_goal_all_done_end", "no", True
                return
            d.parts.append(self.phr.say("no_thanks"))
            d.kind, d.rule, d.choice = "refuse", "offer_outside_goal", "no"
            return
        fallback = None if readback else fallback_for_offer(self.book, self.given, heard.question)
        if (
            fallback is not None and (f := self.book.get(fallback)) is not None
        ):  # 'Yes, please check F L three.'
            d.parts.append(f"Yes, please check {f.spoken()}.")
            d.facts.append(fallback)
        else:
            d.parts.append(self.phr.say("yes" if readback else "yes_go"))
        touched = (
            touched_preferences(self.book, self.given, text)
            if not readback
            else constraints_for(self.book, self.given, heard.readback_ok)
        )
        if touched:  # accepting an offer states the ranked preferences it touches; a read-back of
            d.parts.append(self.say.answer(touched))  # the change wanted, the limits that go with it
            d.facts += touched
        d.kind = "confirm"
        d.rule = "confirm_readback_matches" if readback else "confirm_offer_meets_goal"
        d.choice = "yes"

    def _preference_offered(self, heard: Heard) -> Fact | None:
        """The caller's preference (a fact it wants, a ranked or named preference) that a yes/no
        question about what it prefers names ('Do you prefer window?': live bb.2, where the
        agent's 'window, aisle, or middle?' reached the caller cut after its first option)."""
        if not _PREFER_Q.match(heard.question):
            return None
        for key in heard.readback_ok:
            f = self.book.get(key)
            if f is not None and (f.wanted or {"preference", "choice"} & set(f.words)):
                return f
        return None

    def _draft_transfer(self, heard: Heard, d: Draft) -> CallerAct | None:
        """A transfer offer: accepted (the act) or declined (added to the draft), as the escalation rule says."""
        about = about_transfer(heard.question, heard.has("transfer_offer"))
        if not heard.has("transfer_offer") or not (about or d.kind is None) or d.kind == "answer":
            return None
        if self.rules.accept_transfer:
            return self._act("accept_transfer", self.phr.say("accept_transfer"), "escalation_accepts_transfer",
                             heard, choice="yes")  # fmt: skip
        if not heard.has("denial") or about:
            d.parts.append(self.phr.say("decline_transfer"))
            d.kind = d.kind or "decline_transfer"
            d.rule = d.rule or "escalation_declines_transfer"
            d.choice = d.choice or "no"
        return None
