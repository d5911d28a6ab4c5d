"""What the goal caller knows and has done in one call, shared by the parts that decide its acts.

:class:`CallState` is built once per call from the scenario (:meth:`CallState.build`): the facts
it may say, the tree's rules, its requests and must-haves, its phrasing; and it holds what the
call has done so far (facts given, acts, the agent turn being answered). The parts that decide
(:mod:`.acting`, :mod:`.requests`, :mod:`.drafts`, :mod:`.followups`) each hold this one object,
so none reaches into another's attributes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.agenda import Agenda
from voxbench.pipelines.caller.goal.attempts import attempts_cap
from voxbench.pipelines.caller.goal.belong import fact_owners
from voxbench.pipelines.caller.goal.bundles import Bundles
from voxbench.pipelines.caller.goal.casing import small_words
from voxbench.pipelines.caller.goal.choose import OptionChooser
from voxbench.pipelines.caller.goal.classify import ChoiceClassifier, Heard
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.corrections import Corrections
from voxbench.pipelines.caller.goal.ending_lang import ending_words, pattern
from voxbench.pipelines.caller.goal.facts import FactBook, goal_facts
from voxbench.pipelines.caller.goal.hearing import Hearings
from voxbench.pipelines.caller.goal.intents import IntentTracker, plain_requests
from voxbench.pipelines.caller.goal.learn import Learnings
from voxbench.pipelines.caller.goal.ledger import NAMED_DONE, Ledger
from voxbench.pipelines.caller.goal.openask import GoalOpenAnswers
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.pushback import PushBacks, request_budgets
from voxbench.pipelines.caller.goal.record import OwnRecord
from voxbench.pipelines.caller.goal.refusals import Refusals
from voxbench.pipelines.caller.goal.rules import CONFIRM_READBACK
from voxbench.pipelines.caller.goal.say import FactSayer
from voxbench.pipelines.caller.goal.scope import Scope, stating
from voxbench.pipelines.caller.goal.speech import acronyms_of
from voxbench.pipelines.caller.goal.stall import DECISIONS, Progress, Repeats, Stalls
from voxbench.pipelines.caller.goal.transfers import transfer_failure
from voxbench.pipelines.caller.goal.tree import TreeRules, read_tree
from voxbench.pipelines.caller.goal.yesno import GoalAnswers
from voxbench.scenarios import Scenario
from voxbench.scenarios.models import DecisionTree


@dataclass
class CallState:
    """The caller's scenario-derived parts and the call so far (see the module docstring)."""

    scenario: Scenario
    config: GoalCallerConfig
    hook: ChoiceClassifier | None
    book: FactBook
    rules: TreeRules
    phr: Phrasing
    push: PushBacks
    intents: list[str]
    tracker: IntentTracker
    learn: Learnings
    agenda: Agenda
    say: FactSayer
    scope: Scope
    chooser: OptionChooser
    stalls: Stalls
    bundles: Bundles = field(default_factory=Bundles)
    """Facts a negotiation step gives together when one is asked (:mod:`.bundles`)."""
    repeats: Repeats = field(default_factory=Repeats)
    given: set[str] = field(default_factory=set)
    acts: list[CallerAct] = field(default_factory=list)
    turn: int = 0
    ended: bool = False
    opened: bool = False
    stuck: int = 0
    """Refusals, unanswerable questions or statements in a row (``config.give_up_after``)."""
    reported: set[str] = field(default_factory=set)
    """What the agent said got done, tracked by the caller or not (each once)."""
    plain: list[str] = field(default_factory=list)
    """The requests as the caller words them (:func:`.intents.plain_requests`); ``intents`` are
    what it tracks."""
    pending_before: int = 0
    refused: set[int] = field(default_factory=set)
    """Requests a refusal named (and so marked done)."""
    refused_now: set[int] = field(default_factory=set)
    """Requests the agent turn being answered refused."""
    done_now: set[int] = field(default_factory=set)
    """Requests the agent turn being answered marked done (refused ones aside): what a closing
    read-back may confirm (:meth:`.ending.Endings.confirmed_last`)."""
    stated: int | None = None
    """The request the caller last stated (the first its line's ``about`` names, :func:`.acting.about`):
    the one under way (:meth:`under_way`) until another is stated. A hold, a fact asked and given
    or a must-have checked in between leave it under way: the agent is still working on it, and a
    refusal naming none of its requests after them refuses that one (:meth:`.ending.Endings.note_refusal`)."""
    declined_at: tuple[Progress, int | None] | None = None
    """The call's progress and the request under way (:meth:`under_way`) when the caller last
    declined a transfer (None: it has not). An offer is made *again* only to the same request with
    nothing moved on: the next request's first offer is its own first (:meth:`.ending.Endings.after_declining`)."""
    agent_turn: str = ""
    """The agent turn being answered (until the next one comes)."""
    owners: dict[str, int] = field(default_factory=dict)
    """Fact key -> the request it serves (:mod:`.belong`), and the facts given while a request was
    in hand, for it."""
    in_hand: int | None = None
    """The request the agent turn being answered is about (:meth:`.requests.Requests.in_hand`)."""
    ledger: Ledger = field(default_factory=Ledger)
    """Which request each agent turn resolved beyond its classification, and how (:mod:`.ledger`)."""
    refusals: Refusals = field(default_factory=Refusals)
    """Facts the tree tells the caller to refuse, and what it says instead (:mod:`.refusals`)."""
    hearings: Hearings = field(default_factory=Hearings)
    """Per fact, the agent's failed hearings of it: said, 'as I said', then spelled (:mod:`.hearing`)."""
    corrections: Corrections = field(default_factory=Corrections)
    """The last correction said and its times in a row: acknowledged, then given up (:mod:`.corrections`)."""
    confirmed: set[str] = field(default_factory=set)
    """Facts the caller said yes to read back right (:meth:`moved_on`), each once progress."""

    @cached_property
    def answers(self) -> GoalAnswers:
        """The goal's answers to yes/no questions about the caller's situation (:mod:`.yesno`)."""
        return GoalAnswers.of(self.scenario)

    @cached_property
    def open_answers(self) -> GoalOpenAnswers:
        """The goal's answers to open questions about what the caller wants or has (:mod:`.openask`)."""
        return GoalOpenAnswers.of(self.scenario)

    @cached_property
    def record(self) -> OwnRecord:
        """The caller's own places and dates, to tell its record from another (:mod:`.record`)."""
        return OwnRecord.of(self.book, self.goal_text)

    @cached_property
    def transfer_fails(self) -> tuple[bool, int]:
        """How the failure condition ends the call on a transfer the agent does not make: at once
        on a transfer refused, and the caller's transfer requests it counts (:func:`.transfers.transfer_failure`)."""
        return transfer_failure(self.scenario.user_goal.decision_tree.failure_condition or "")

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The words of the caller's own name (a check may call it by name: :mod:`.presence`)."""
        return tuple(re.findall(r"[a-z]+", self.scenario.user_config.name.lower()))

    @property
    def goal_text(self) -> str:
        return self.scenario.user_goal.high_level_user_goal

    @classmethod
    def build(
        cls, scenario: Scenario, config: GoalCallerConfig, hook: ChoiceClassifier | None = None
    ) -> CallState:
        goal = scenario.user_goal
        tree = goal.decision_tree
        book = goal_facts(goal.information_required, scenario.seed_data)
        rules = read_tree(tree.must_have_criteria, tree.nice_to_have_criteria, tree.negotiation_behavior,
                          tree.edge_cases, tree.escalation_behavior, goal.high_level_user_goal,
                          tree.failure_condition)  # fmt: skip
        phr = Phrasing(
            config.seed, scenario.user_config.user_persona, small_words(scenario.model_dump(), book)
        )
        listed = [str(i.get("intent", "")) for i in (scenario.scenario_context.get("intents") or [])
                  if isinstance(i, dict)]  # fmt: skip
        lead = pattern("agent_lead")  # 'Get the agent to skip ...' said to the agent: 'ask you to skip ...'
        intents = [lead.sub(ending_words().agent_lead_said, i) for i in listed if i] or [
            goal.high_level_user_goal
        ]
        tracker = IntentTracker(intents, goal.high_level_user_goal)
        explicit = intents != [goal.high_level_user_goal]  # must-haves of a listed request are the tracker's
        agenda = Agenda(
            tree.must_have_criteria,
            lambda c: explicit and any(tracker.mentions(i, c) for i in range(len(intents))),
            conditions=not explicit,
        )
        agenda.check_before_end([*tree.negotiation_behavior, *tree.edge_cases])
        start = scenario.starting_utterance() or ""
        scope = Scope(
            [goal.high_level_user_goal, *intents, *tree.must_have_criteria, *tree.nice_to_have_criteria,
             *tree.negotiation_behavior, *tree.edge_cases, tree.resolution_condition, tree.failure_condition,
             start],
            book,
            [*intents, start, *stating(goal.high_level_user_goal, intents)],
        )  # fmt: skip
        book.matter = frozenset(scope.words)
        chooser = OptionChooser(
            rules, book, tracker,
            [goal.high_level_user_goal, *tree.must_have_criteria, *tree.nice_to_have_criteria], hook,
        )  # fmt: skip
        return cls(
            scenario=scenario, config=config, hook=hook, book=book, rules=rules, phr=phr,
            push=PushBacks(rules, _follow_ups(config.follow_ups, rules, tree), phr,
                           request_budgets([*tree.must_have_criteria, *tree.nice_to_have_criteria], tracker.says,
                                           len(intents)),
                            attempts_cap(tree.failure_condition or "")),
            intents=intents, tracker=tracker, plain=plain_requests(intents),
            learn=Learnings(tree.must_have_criteria), agenda=agenda,
            say=FactSayer(book, phr, acronyms_of([goal.model_dump_json(), start])), scope=scope,
            chooser=chooser, stalls=Stalls(config.stall_limit), bundles=Bundles.of(tree.negotiation_behavior, book),
            pending_before=len(intents),
            owners=fact_owners(intents, book, goal.high_level_user_goal), ledger=Ledger.of(len(intents)),
            refusals=Refusals.of([*tree.negotiation_behavior, *tree.edge_cases], book),
        )  # fmt: skip

    def under_way(self) -> int | None:
        """The request the caller stated last (:attr:`stated`), while it is still open; None once it
        is done or refused (or none was stated: the opening's request is no statement of one)."""
        i = self.stated
        return i if i is not None and not self.tracker.done[i] else None

    def speaks_of(self, i: int) -> bool:
        """Whether the agent turn speaks of request ``i``, even by one word: says one of the words
        that tell it apart (:meth:`.intents.IntentTracker.mentions`) outside the words a transfer
        offer is made of ('transfer you', 'a live agent who can call you back', 'don't leave the
        line': data, ``offer_own_words``). Those are the offer's own, whatever a request shares
        with them: the 'call' of 'on-call availability', the 'transfer' of 'Transfer DEA registration'."""
        return self.tracker.mentions(i, pattern("offer_own_words").sub(" ", self.agent_turn))

    def speaks_of_other(self, i: int) -> bool:
        """Whether the agent turn speaks of another of the caller's requests than ``i`` (:meth:`speaks_of`)."""
        return any(self.speaks_of(j) for j in range(len(self.intents)) if j != i)

    def named_done_now(self) -> bool:
        """Whether the agent turn being answered named one of the caller's requests finished
        (:meth:`.ending.Endings.named_done`): a completion report, whatever its classification."""
        return self.ledger.turn_resolved(self.turn, NAMED_DONE)

    def reports_done(self, heard: Heard) -> bool:
        """Whether the agent turn being answered reports something done: classified a completion,
        or a request named finished (:meth:`named_done_now`)."""
        return heard.has("completed") or self.named_done_now()

    def heard_kinds(self, heard: Heard) -> list[str]:
        """What the caller understood the turn as, for the act's trail: its classification, and a
        completion where it named a request finished."""
        extra = ["completed"] if self.named_done_now() and not heard.has("completed") else []
        return [*heard.kinds, *extra]

    def moved_on(self, rule: str, read_back: list[str]) -> None:
        """A drafted act answered the turn: the statements in a row that bring nothing start again
        (``stuck``); a yes to a read-back does not, and only its facts confirmed for the first time
        are progress (:meth:`progress`)."""
        if rule != CONFIRM_READBACK:
            self.stuck = 0
        else:
            self.confirmed.update(read_back)

    def progress(self) -> Progress:
        """What the call has moved on by, the one measure of progress (:mod:`.stall`): facts given,
        requests done, parts of its question told, decisions made (a choice or yes/no not made
        before), things the agent said got done (which the caller may not track), facts confirmed
        read back right, each once: an agent saying "That's done." again with the same question is
        not moving on. A yes to a read-back decides nothing beyond its facts: an agent reading back
        seven fields one by one moves on seven times, one reading the caller's values back again
        between asks of them again makes no progress."""
        decisions = {
            (a.kind, a.choice or a.text)
            for a in self.acts
            if a.kind in DECISIONS and a.rule != CONFIRM_READBACK
        }
        told = sum(p.told for p in self.learn.parts)
        done = sum(self.tracker.done)
        return len(self.given), done, told, len(decisions), len(self.reported), len(self.confirmed)


def _follow_ups(configured: int, rules: TreeRules, tree: DecisionTree) -> int:
    """The generic follow-up questions after a refusal: none where the tree counts its own
    push-backs ('after pushing back firmly 3 times, if you are clearly denied, accept the outcome')
    and names no follow-up question: the tree's count is the caller's budget."""
    text = " ".join([*tree.negotiation_behavior, *tree.must_have_criteria, *tree.nice_to_have_criteria,
                     *tree.edge_cases, tree.failure_condition, tree.resolution_condition])  # fmt: skip
    return configured if not rules.pushbacks or pattern("follow_up_named").search(text) else 0
