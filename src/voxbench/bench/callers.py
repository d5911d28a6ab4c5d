"""The callers the bench runs, each behind one interface: fit on training scenarios, then one
:class:`~.caller_check.TextCaller` per scenario.

* ``goal``: the goal caller with its rules only; nothing to fit.
* ``goal+learned``: the goal caller with :class:`~voxbench.pipelines.caller.goal.learned.FactModel`
  as its hook, fitted on the training scenarios' reference conversations (labels from the bench's
  own matcher) and nothing else.
* ``llm``: the LLM caller's text path (:mod:`.llm_caller`); nothing to fit.
"""

from __future__ import annotations

from typing import Any, Protocol

from voxbench.bench.caller_check import Reply, TextCaller, expected_pairs
from voxbench.pipelines.caller.goal.classify import ChoiceClassifier
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.learned import Example, FactModel
from voxbench.scenarios import Scenario

Item = tuple[str, Scenario]


class CallerKind(Protocol):
    """A caller the bench can fit and run."""

    name: str
    fits: bool

    def fit(self, train: list[Item]) -> None: ...

    def make(self, domain: str, scenario: Scenario) -> TextCaller: ...


class GoalTextCaller:
    """The goal caller behind the :class:`TextCaller` interface."""

    def __init__(self, scenario: Scenario, seed: int = 0, hook: ChoiceClassifier | None = None) -> None:
        from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig

        self.caller = GoalCaller(scenario, GoalCallerConfig(seed=seed), hook=hook)

    @staticmethod
    def _reply(act: Any) -> Reply:
        return Reply(text=act.text, ends_call=act.ends_call, facts=act.facts, kind=act.kind, rule=act.rule)

    def open(self) -> Reply:
        return self._reply(self.caller.open())

    def respond(self, agent_text: str) -> Reply:
        return self._reply(self.caller.respond(agent_text))


class GoalRules:
    """The goal caller as it is, rules only."""

    name = "goal"
    fits = False

    def __init__(self, seed: int = 0, hook: ChoiceClassifier | None = None, name: str = "goal") -> None:
        self.seed, self.hook, self.name = seed, hook, name

    def fit(self, train: list[Item]) -> None:
        return None

    def make(self, domain: str, scenario: Scenario) -> TextCaller:
        return GoalTextCaller(scenario, seed=self.seed, hook=self.hook)


def training_examples(train: list[Item]) -> list[Example]:
    """The fact model's pairs: each reference agent turn, the caller's facts, what the reference
    caller had given before and what it disclosed in reply (by the bench's matcher)."""
    out = []
    for _, sc in train:
        book = goal_facts(sc.user_goal.information_required, sc.seed_data)
        given: set[str] = set()
        for agent, _ref, disclosed in expected_pairs(sc):
            out.append(Example(agent, book, set(given), set(disclosed)))
            given |= set(disclosed)
    return out


class GoalLearned(GoalRules):
    """The goal caller with the fact model as its hook, fitted on the training scenarios only."""

    fits = True

    def __init__(self, seed: int = 0, threshold: float = 0.5, mode: str = "fallback") -> None:
        super().__init__(seed, name="goal+learned" if mode == "fallback" else f"goal+learned-{mode}")
        self.threshold, self.mode = threshold, mode

    def fit(self, train: list[Item]) -> None:
        self.hook = FactModel(threshold=self.threshold, mode=self.mode).fit(training_examples(train))
