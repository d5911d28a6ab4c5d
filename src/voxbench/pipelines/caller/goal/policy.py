"""The goal caller: decides each reply by its decision tree and says only its own facts.

``GoalCaller(scenario).open()`` gives the starting utterance; ``respond(agent_text)`` classifies
the agent's turn (:mod:`.classify`) and decides, in this order:

1. the agent transfers or says goodbye: end the call;
2. the agent asks for facts: give exactly those, codes spelled (:func:`.spoken.say_value`);
   reads a fact back wrong: correct it; asks a yes/no question: yes when the read-back or the
   offer meets the goal (:mod:`.tree` limits), no and the must-haves otherwise;
3. offers options: the one the criteria pick (limits, the tree's earliest/latest rule, the
   caller's ranked preferences, its facts, its goal's words);
4. offers a transfer: decline or accept, as the escalation rule says;
5. reports the task done, or asks "anything else?": the next intent, or goodbye when none is left;
6. refuses: the tree's next scripted line, one follow-up question, then goodbye (failure);
7. a troubleshooting step: fixed or not, by the steps the tree says fix it;
8. a hold: wait silently; a question it has no fact for: say so (it never invents one).

Deterministic for a seed (the seed only picks among equivalent phrasings).
"""

from __future__ import annotations

import re
import time
from typing import Any

from pydantic import BaseModel

from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.classify import ChoiceClassifier, Heard, classify
from voxbench.pipelines.caller.goal.facts import Fact, FactBook, goal_facts, key_words, stem
from voxbench.pipelines.caller.goal.intents import IntentTracker, intent_facts
from voxbench.pipelines.caller.goal.phrases import Phrasing, as_need, first_person
from voxbench.pipelines.caller.goal.spoken import mentions, say_time, sentences_of, times
from voxbench.pipelines.caller.goal.tree import OUTCOME_WORDS, TreeRules, content_words, read_tree, violations
from voxbench.scenarios import Scenario


class GoalCallerConfig(BaseModel):
    seed: int = 0
    give_up_after: int = 3
    """Turns in a row without progress (refusals, questions it cannot answer) before goodbye."""
    follow_ups: int = 1
    """Generic follow-up questions after a refusal, once the tree's scripted lines are used."""
    same_ask_limit: int = 4
    """Times in a row the agent may ask again for the same facts already given before the caller
    gives up (an agent looping on 'What is your last name?' would otherwise hold the call open)."""
    stall_limit: int = 6
    """Agent turns in a row that bring the caller no progress (no new fact disclosed, no new
    choice, no request done; waiting on a hold is neutral) before it says goodbye: EVA's user
    prompt ends the call when "the assistant has not been helpful for 5 consecutive turns". The
    caller's own progress undercounts an agent's help (an explanation it asked for is none), so
    one more turn (5 cut one long itsm reference call short on caller check). The specific counters above catch one loop shape each; this catches interleaved ones (live:
    'last name of the person you want to transfer to?' / 'reason for the transfer?' in turn for
    5 minutes). After a declined transfer one such turn is left: EVA's caller declines "and
    ends the call on the next turn" unless the agent finds another path (that turn's progress)."""


_CURRENT = re.compile(
    r"\b(currently|current|original|existing|previous|you('re| are) (now )?on|booked on|today you)\b", re.I
)


def _short(option: str) -> str:
    """How the caller names the option it picks: by its time when it has one ('the 12:05 PM one')."""
    ts = times(option)
    if ts:
        h, m = ts[0]
        return f"The {say_time(f'{h:02d}:{m:02d}')} one"
    words = option.split()
    text = " ".join(words[:8])
    return text[:1].upper() + text[1:]


def fact_label(f: Fact) -> str:
    words = key_words(f.key.split(".")[0]) if "." in f.key else list(f.words)
    out = []
    for w in words:
        if w == "id":
            out.append("ID")
        elif len(w) <= 3 and w.isalpha() and w not in ("of", "on", "day", "end", "new", "zip", "pin", "fee"):
            out.append(" ".join(w.upper()))
        elif w == "pin":
            out.append("PIN")
        else:
            out.append(w)
    return " ".join(out) or f.key


class GoalCaller:
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
        intents = [
            str(i.get("intent", ""))
            for i in (scenario.scenario_context.get("intents") or [])
            if isinstance(i, dict)
        ]
        self.intents = [i for i in intents if i] or [goal.high_level_user_goal]
        self.tracker = IntentTracker(self.intents)
        self.done: list[bool] = self.tracker.done
        self._completions = 0
        self.given: set[str] = set()
        self.acts: list[CallerAct] = []
        self.turn = 0
        self.ended = False
        self.opened = False
        self._scripted_next = 0
        self._follow_ups = 0
        self._pushbacks = 0
        self._stuck = 0
        self._last_ask: tuple[str, ...] = ()
        self._same_asks = 0
        self._stalls = 0
        self._decisions: set[tuple[str, str]] = set()
        self._goal_words = content_words(
            " ".join([goal.high_level_user_goal, *tree.must_have_criteria, *tree.nice_to_have_criteria])
        )

    @classmethod
    def from_resolved(cls, data: dict[str, Any], **kw: Any) -> GoalCaller:
        """From a culture-resolved scenario dict (``CallScenario.resolved()``, or a record's scenario.json)."""
        return cls(Scenario.model_validate(data), **kw)

    # -- acts ---------------------------------------------------------------------------------

    def _act(self, kind: ActKind, text: str, rule: str, heard: Heard | None = None, **kw: Any) -> CallerAct:
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
        if act.ends_call:
            self.ended = True
        self.given.update(act.facts)
        self.acts.append(act)
        return act

    def open(self) -> CallerAct:
        """The starting utterance (the opening line of the call)."""
        self.opened = True
        text = self.scenario.starting_utterance() or as_need(self.intents[0])
        return self._act("open", text, "starting_utterance")

    def respond(self, agent_text: str) -> CallerAct:
        """Decide the reply to one agent turn (timed in ``ms`` by the caller of this method)."""
        self.turn += 1
        heard = classify(agent_text, self.book, self.given, self.hook, self._focus())
        if not self.opened:
            self.opened = True
            text = self.scenario.starting_utterance() or as_need(self.intents[0])
            return self._act("open", text, "starting_utterance", heard)
        if self._stalls >= self.config.stall_limit:
            return self._act("end", self.phr.say("bye_give_up"), "stalled_call_end", heard, ends_call=True)
        given, done = len(self.given), sum(self.done)
        act = self._decide(agent_text, heard)
        self._count_stall(act, given, done)
        return act

    def _count_stall(self, act: CallerAct, given: int, done: int) -> None:
        """Progress is a newly disclosed fact, a decision not made before, or a request done."""
        if act.kind == "wait":
            return
        decision = (
            (act.kind, act.choice or act.text)
            if act.kind in ("choose", "confirm", "correct", "refuse")
            else None
        )
        new_decision = decision is not None and decision not in self._decisions
        if decision is not None:
            self._decisions.add(decision)
        progress = len(self.given) > given or sum(self.done) > done or new_decision
        self._stalls = 0 if progress else self._stalls + 1
        if act.kind == "decline_transfer":
            self._stalls = max(self._stalls, self.config.stall_limit - 1)

    # -- the decision ---------------------------------------------------------------------------

    def _decide(self, text: str, heard: Heard) -> CallerAct:
        self._note_resolutions(text, heard)
        if heard.has("transfer"):
            return self._act("end", self.phr.say("bye"), "transfer_ends_call", heard, ends_call=True)
        if heard.has("goodbye") and not heard.has("request"):
            return self._act("end", self.phr.say("bye"), "agent_goodbye", heard, ends_call=True)
        if self._asked_in_a_loop(heard):
            return self._act(
                "end", self.phr.say("bye_give_up"), "same_facts_asked_again_end", heard, ends_call=True
            )
        parts: list[str] = []
        facts: list[str] = []
        kind: ActKind | None = None
        rule = ""
        choice = ""
        if heard.has("request"):
            if heard.readback_ok and heard.has("confirm_question") and not heard.readback_wrong:
                parts.append(self.phr.say("yes"))
                choice = "yes"
            keys = self._with_first_names(list(heard.asked))
            parts.append(self._answer(keys))
            facts += keys
            kind, rule = "answer", "answer_asked_facts"
        if heard.readback_wrong:
            fixes = [self.book.get(k) for k in heard.readback_wrong]
            said = " ".join(self._fact_sentence(f) for f in fixes if f)
            parts.append(self.phr.say("correct", fact=said))
            facts += heard.readback_wrong
            kind, rule, choice = "correct", "correct_wrong_readback", "no"
        elif heard.has("options") and heard.has("request"):
            picked, why = self._choose(heard.options)
            said = why.split(":", 1)[1] if why.startswith("option_matches_fact:") else ""
            if said in self.given or said in heard.asked:  # the option just repeats a fact already said
                picked = ""
            if picked and why.startswith(("option_matches_fact", "option_matches_goal")):
                parts.append(self.phr.say("choose", option=_short(picked)))
                rule, choice = f"{rule}+{why}", picked
        elif heard.has("options"):
            picked, why = self._choose(heard.options)
            if picked:
                parts.append(self.phr.say("choose", option=_short(picked)))
                kind, rule, choice = "choose", why, picked
                nxt = self.tracker.rank(picked) if why == "option_is_next_request" else None
                if nxt is not None:  # choosing one of its requests, the caller says what it needs there
                    details, told = self._intent_details(nxt)
                    parts.append(details)
                    facts += told
                touched = self._touched_preferences(picked)
                if touched:
                    parts.append(self._answer(touched))
                    facts += touched
            else:
                parts.append(self._refuse_line())
                kind, rule, choice = "refuse", "no_option_meets_goal", "none"
        elif heard.has("confirm_question") and not self._about_transfer(heard.question, heard):
            offer = self._offer_text(text, heard.question)
            bad = violations(self.rules, offer)
            if bad:
                parts.append(self._refuse_line(bad))
                kind, rule, choice = "refuse", "offer_breaks_must_have", "no"
            elif kind is None:
                readback = heard.has("readback") and not re.search(
                    r"\b(would you like|shall i|do you want|submit|proceed|go ahead|book|approv)",
                    heard.question,
                    re.I,
                )
                parts.append(self.phr.say("yes" if readback else "yes_go"))
                if not readback:  # accepting an offer that touches a ranked preference: state it
                    touched = self._touched_preferences(text)
                    if touched:
                        parts.append(self._answer(touched))
                        facts += touched
                kind = "confirm"
                rule = "confirm_readback_matches" if readback else "confirm_offer_meets_goal"
                choice = "yes"
        if (
            heard.has("transfer_offer")
            and (self._about_transfer(heard.question, heard) or kind is None)
            and kind != "answer"
        ):
            if self.rules.accept_transfer:
                return self._act(
                    "accept_transfer",
                    self.phr.say("accept_transfer"),
                    "escalation_accepts_transfer",
                    heard,
                    choice="yes",
                )
            if not heard.has("denial") or self._about_transfer(heard.question, heard):
                parts.append(self.phr.say("decline_transfer"))
                kind, rule, choice = (
                    kind or "decline_transfer",
                    rule or "escalation_declines_transfer",
                    choice or "no",
                )
        if kind is not None and kind != "decline_transfer":
            self._stuck = 0
            return self._act(
                kind, " ".join(parts), rule, heard, facts=list(dict.fromkeys(facts)), choice=choice
            )
        refused = heard.has("denial") and not heard.has("completed")
        if refused and heard.has("anything_else") and self._pushbacks_left():
            return self._after_refusal(text, heard)
        if heard.has("completed") and heard.has("hold") and not heard.has("anything_else"):
            return self._act("wait", "", "next_step_waits", heard)
        if heard.has("completed") or heard.has("anything_else"):
            return self._after_done(heard)
        if heard.has("troubleshoot"):
            fixed = self._step_fixes(text)
            self._stuck = 0
            return self._act("report", self.phr.say("fixed" if fixed else "not_fixed"),
                             "tree_step_fixes" if fixed else "tree_step_does_not_fix", heard,
                             choice="fixed" if fixed else "not_fixed")  # fmt: skip
        if heard.has("denial"):
            return self._after_refusal(text, heard, prefix=" ".join(parts))
        if kind == "decline_transfer":
            return self._act(kind, " ".join(parts), rule, heard, choice=choice)
        if heard.has("hold"):
            return self._act("wait", "", "hold_waits", heard)
        if heard.has("open_question"):
            one = bool(
                re.search(
                    r"\b(second|next|other|another|third|fourth|fifth|last|remaining)\b", heard.question, re.I
                )
            )
            line, told = self._request_line(one)
            return self._act("state_request", line, "state_request", heard, facts=told)
        if heard.has("question"):
            return self._unanswerable(heard)
        return self._acknowledge(heard)

    # -- pieces ---------------------------------------------------------------------------------

    def _fact_sentence(self, f: Fact) -> str:
        return self.phr.say("fact", label=fact_label(f), value=f.spoken())

    def _with_first_names(self, keys: list[str]) -> list[str]:
        """Asked for a last name, a caller says the full name: the matching first name goes with it."""
        out = list(keys)
        for k in keys:
            f = self.book.get(k)
            if f is None or "last" not in f.words or "name" not in f.words:
                continue
            twin = [w if w != "last" else "first" for w in f.words]
            first = [o.key for o in self.book if list(o.words) == twin and o.key not in out]
            out += first[:1]
        for k in (
            keys
        ):  # asked for a code, a caller says what it stands for too ('M G E N G, Engineering Manager')
            f = self.book.get(k)
            if f is not None and f.words and f.words[-1] == "code":
                named = [o.key for o in self.book if list(o.words) == list(f.words[:-1]) and o.key not in out]
                out += named[:1]
        return out

    def _answer(self, keys: list[str]) -> str:
        groups: dict[str, list[Fact]] = {}
        for k in keys:
            f = self.book.get(k)
            if f is not None:
                groups.setdefault(f.top if "." in f.key else f.key, []).append(f)
        out: list[str] = []
        for fs in groups.values():
            ranked = sorted(
                (f for f in fs if re.search(r"(first|second|third)_choice$", f.key)), key=lambda f: f.key
            )
            if len(ranked) >= 2:
                order = {"first": 0, "second": 1, "third": 2}
                ranked.sort(key=lambda f: order[f.key.rsplit(".", 1)[-1].split("_")[0]])
                line = self.phr.say(
                    "ranked", first=ranked[0].spoken().capitalize(), second=ranked[1].spoken()
                )
                if len(ranked) > 2:
                    line = f"{line[:-1]}, and {ranked[2].spoken()} only as a last resort."
                out.append(line)
                fs = [f for f in fs if f not in ranked]
            out += [self._fact_sentence(f) for f in fs]
        return " ".join(out)

    def _touched_preferences(self, text: str) -> list[str]:
        """Ranked preferences (first/second choice) to state when accepting an offer.

        Those whose subject the offer mentions ('seat'), and those not stated yet: accepting a
        booking is when its nice-to-haves matter ("Yes, the 1 PM. Window if available, aisle if not.").
        """
        words = content_words(text)
        out: list[str] = []
        for f in self.book:
            if re.search(r"(first|second|third)_choice$", f.key):
                subject = [
                    w for w in f.distinctive if w not in ("first", "second", "third", "choice", "preference")
                ]
                if subject and (all(stem(w) in words for w in subject) or f.key not in self.given):
                    out.append(f.key)
        return out

    def _about_transfer(self, question: str, heard: Heard | None = None) -> bool:
        if re.search(r"\btransfer|\blive (agent|specialist|person)|\bsupervisor|\bhuman\b", question, re.I):
            return True
        vague = (
            r"\b(would you like|do you want|shall i|should i)\b.{0,25}\b(do that|that|this|connect|now)\?$"
        )
        return bool(heard and heard.has("transfer_offer") and re.search(vague, question, re.I))

    def _offer_text(self, text: str, question: str) -> str:
        sents = [s for s in sentences_of(text) if not _CURRENT.search(s)]
        qt = times(question)
        if qt:
            sel = [s for s in sents if set(times(s)) & set(qt)]
            return " ".join(sel or [question])
        return " ".join(sents)

    def _choose(self, options: list[str]) -> tuple[str, str]:
        ok = [o for o in options if not violations(self.rules, o)]
        if not ok:
            return "", ""
        ranks = [(r, o) for o in ok if (r := self.tracker.rank(o)) is not None]
        if len({r for r, _ in ranks}) >= 2:  # the options are the caller's own requests, in its order
            return min(ranks)[1], "option_is_next_request"
        for f in self.book:  # ranked preferences and facts named in an option
            if f.key.endswith("first_choice") or not re.search(r"_choice$", f.key):
                hit = [o for o in ok if any(mentions(o, v) for v in f.values())]
                if len(hit) == 1 and len(ok) > 1:
                    return hit[0], f"option_matches_fact:{f.key}"
        for f in self.book:  # a fact value sharing a word with exactly one option ('reactivate_restricted')
            vw = {w for v in f.values() for w in content_words(v.replace("_", " ")) if len(w) > 3}
            hit = [o for o in ok if vw & content_words(o)]
            if vw and len(hit) == 1 and len(ok) > 1 and not re.search(r"_choice$", f.key):
                return hit[0], f"option_shares_fact_word:{f.key}"
        if self.rules.prefer in ("earliest", "latest") and all(times(o) for o in ok):
            key = [min(h * 60 + m for h, m in times(o)) for o in ok]
            i = key.index(min(key) if self.rules.prefer == "earliest" else max(key))
            return ok[i], f"tree_prefers_{self.rules.prefer}"
        scored = sorted(ok, key=lambda o: -len(content_words(o) & self._goal_words))
        if len(content_words(scored[0]) & self._goal_words) > (
            len(content_words(scored[1]) & self._goal_words) if len(scored) > 1 else -1
        ):
            return scored[0], "option_matches_goal_words"
        if self.hook is not None and len(ok) > 1:  # unsure: no rule tells the options apart
            pick = self.hook.choose(self._criteria_prompt(), [*ok, "none of these"])
            if pick is not None and 0 <= pick < len(ok):
                return ok[pick], f"option_meets_criteria:llm:{self.hook.name}"
        return ok[0], "first_option_meeting_must_haves" if self.rules.limits else "first_option"

    def _criteria_prompt(self) -> str:
        tree = self.scenario.user_goal.decision_tree
        lines = [
            self.scenario.user_goal.high_level_user_goal,
            *tree.must_have_criteria,
            *tree.nice_to_have_criteria,
        ]
        return (
            "The caller wants:\n- "
            + "\n- ".join(lines)
            + "\nThe agent offered options. Which one meets this best?"
        )

    def _refuse_line(self, bad: list[str] | None = None) -> str:
        restate = [c for c in (bad or []) if c != "direct"] or list(
            self.scenario.user_goal.decision_tree.must_have_criteria[:1]
        )
        line = self.phr.say("no_offer")
        return f"{line} {first_person(restate[0])}" if restate else line

    def _request_line(self, only_next: bool = False) -> tuple[str, list[str]]:
        """The caller's pending requests (or just the next), with the details of the first one."""
        pending = self.tracker.pending() or list(range(len(self.intents)))
        if only_next:
            pending = pending[:1]
        if len(self.intents) == 1 and self.intents[0] == self.scenario.user_goal.high_level_user_goal:
            return first_person(self.intents[0]), []
        parts = [as_need(self.intents[i]) for i in pending]
        line = (", and ".join(parts) + ".").replace(", and I need to ", ", and ")
        details, told = self._intent_details(pending[0])
        return f"{line} {details}".strip(), told

    def _intent_details(self, i: int) -> tuple[str, list[str]]:
        """The facts that go with request ``i`` and have not been said (the intent's words aside)."""
        intent = self.intents[i]
        others = [x for j, x in enumerate(self.intents) if j != i]
        fs = [
            f
            for f in intent_facts(intent, self.book, others)
            if f.key not in self.given and not any(mentions(intent, v) for v in f.values())
        ]
        return self._answer([f.key for f in fs]), [
            f.key for f in intent_facts(intent, self.book, others) if f.key not in self.given
        ]

    def _asked_in_a_loop(self, heard: Heard) -> bool:
        """The agent asks again, turn after turn, only for facts the caller already gave."""
        ask = tuple(sorted(heard.asked))
        repeat = bool(ask) and ask == self._last_ask and set(ask) <= self.given
        self._same_asks = self._same_asks + 1 if repeat else 0
        self._last_ask = ask
        return self._same_asks >= self.config.same_ask_limit

    def _focus(self) -> set[str]:
        """The facts of the request in hand (the first one not done)."""
        pending = self.tracker.pending()
        if not pending or len(self.intents) < 2:
            return set()
        i = pending[0]
        others = [x for j, x in enumerate(self.intents) if j != i]
        return {f.key for f in intent_facts(self.intents[i], self.book, others)}

    def _note_resolutions(self, text: str, heard: Heard) -> None:
        """Which intents the agent has completed or refused, by their words in its closing sentences."""
        if heard.has("completed") or heard.has("denial"):
            self._completions += heard.has("completed")
            self.tracker.note(text, heard.has("completed"))

    def _restated(self) -> int:
        """How many of the caller's last acts in a row stated a request again with nothing new."""
        n = 0
        for a in reversed(self.acts):
            if a.kind != "state_request" or a.facts:
                break
            n += 1
        return n

    def _after_done(self, heard: Heard) -> CallerAct:
        self._stuck = 0
        if False in self.done and (heard.has("anything_else") or not heard.has("question")):
            if self._restated() >= self.config.give_up_after - 1:
                # live bb.2: "Anything else?" after a lookup, the same request stated 7 times
                return self._act(
                    "end", self.phr.say("bye_give_up"), "request_restated_end", heard, ends_call=True
                )
            i = self.done.index(False)
            nxt = as_need(self.intents[i])
            details, told = self._intent_details(i)
            line = self.phr.say(
                "next_request", intent=nxt if nxt.startswith("I ") else nxt[0].lower() + nxt[1:]
            )
            return self._act("state_request", f"{line} {details}".strip(), "next_intent", heard, facts=told)
        if heard.has("anything_else"):
            return self._act("end", self.phr.say("bye_nothing"), "nothing_else_end", heard, ends_call=True)
        if heard.has("question"):
            return self._unanswerable(heard)
        return self._act("end", self.phr.say("bye_done"), "resolution_end", heard, ends_call=True)

    def _step_fixes(self, text: str) -> bool:
        words = content_words(text) - OUTCOME_WORDS
        fix = len(words & (self.rules.fixing_words - self.rules.not_fixing_words))
        return fix >= 2 and fix > len(words & self.rules.not_fixing_words)

    def _pushbacks_left(self) -> bool:
        return bool(
            self.rules.scripted[self._scripted_next :]
            or self._pushbacks < self.rules.pushbacks - len(self.rules.scripted)
            or self._follow_ups < self.config.follow_ups
        )

    def _after_refusal(self, text: str, heard: Heard, prefix: str = "") -> CallerAct:
        self._stuck += 1
        words = content_words(text)
        for s in self.rules.scripted[self._scripted_next :]:
            cond = content_words(s.condition)
            if len(cond & words) >= 2 or re.search(
                r"\b(refus|can't|cannot|declin|not eligible|pushback|push back|denied|still)",
                s.condition,
                re.I,
            ):
                self._scripted_next = s.index + 1
                return self._act("pushback", f"{prefix} {s.line}", f"tree_scripted_line:{s.index}", heard)
        if self._pushbacks < self.rules.pushbacks - len(self.rules.scripted):
            self._pushbacks += 1
            return self._act("pushback", f"{prefix} {self.phr.say('push_back')}", "tree_push_back", heard)
        if self._follow_ups < self.config.follow_ups:
            self._follow_ups += 1
            return self._act(
                "pushback", f"{prefix} {self.phr.say('follow_up')}", "one_follow_up_question", heard
            )
        if heard.has("question") and self._stuck < self.config.give_up_after:
            return self._unanswerable(heard)
        return self._act("end", self.phr.say("bye_give_up"), "failure_condition_end", heard, ends_call=True)

    def _acknowledge(self, heard: Heard) -> CallerAct:
        """'Okay.' to a statement; a statement right after one is no progress: the open request
        once more, then goodbye (live: 'I'm glad I could help...' / 'Okay.' looped to the limit)."""
        if self.acts and self.acts[-1].kind in ("acknowledge", "state_request") and self.turn > 1:
            self._stuck += 1
            if self._stuck >= self.config.give_up_after:
                return self._act("end", self.phr.say("bye_give_up"), "no_progress_end", heard, ends_call=True)
            if False in self.done and self.acts[-1].kind == "acknowledge":
                line, told = self._request_line(True)
                return self._act("state_request", line, "restate_after_statements", heard, facts=told)
        return self._act("acknowledge", self.phr.say("ok"), "acknowledge_statement", heard)

    def _unanswerable(self, heard: Heard) -> CallerAct:
        self._stuck += 1
        if self._stuck >= self.config.give_up_after:
            return self._act("end", self.phr.say("bye_give_up"), "no_progress_end", heard, ends_call=True)
        return self._act("cannot_answer", self.phr.say("dont_have"), "no_fact_for_question", heard)


def silence(caller: GoalCaller) -> CallerAct:
    """The agent has said nothing for a long while (it said "one moment" and went quiet): ask
    whether it is still there, and hang up the next time. A person does; and a caller that only
    waits leaves the call to the inactivity limit, with the agent's "one moment" as the last
    words, which EVA's gate counts as an unfinished simulation rather than the agent's failure."""
    caller.turn += 1
    caller._stalls += 1
    if caller.acts and caller.acts[-1].kind == "check_in":
        return caller._act("end", caller.phr.say("bye_give_up"), "silence_after_check_in_end", ends_call=True)
    return caller._act("check_in", caller.phr.say("check_in"), "agent_silent_check_in")


def timed_respond(caller: GoalCaller, agent_text: str) -> tuple[CallerAct, float]:
    """``respond`` and how long it took, in milliseconds."""
    t0 = time.perf_counter()
    act = caller.respond(agent_text)
    return act, (time.perf_counter() - t0) * 1000.0
