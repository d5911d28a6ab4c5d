"""The optional LLM classifier: asked only when the rules are unsure, and it only picks an index."""

from __future__ import annotations

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.classifier_llm import ChoiceLLM, LLMChoiceClassifier
from voxbench.pipelines.caller.goal.policy import GoalCaller


class ScriptedLLM(ChoiceLLM):
    """Answers with the label of the first choice that contains ``wanted`` (else the 'none' label)."""

    def __init__(self, wanted: str) -> None:
        self.wanted = wanted
        self.prompts: list[str] = []

    def pick(self, prompt: str, labels: list[str]) -> str | None:
        self.prompts.append(prompt)
        lines = prompt.split("Choices:\n", 1)[1].splitlines()
        for lab, line in zip(labels, lines, strict=False):
            if self.wanted in line:
                return lab
        return labels[-1]


_INFO = {"employee_id": "EMP048271", "badge_number": "B77120"}


def test_rules_decide_without_asking_the_llm() -> None:
    llm = ScriptedLLM("badge")
    c = GoalCaller(make_scenario(_INFO), hook=LLMChoiceClassifier(llm))
    c.open()
    act = c.respond("Please give me your employee ID.")
    assert act.facts == ["employee_id"] and act.classifier == "rules" and llm.prompts == []


def test_unsure_request_is_resolved_by_the_llm_choice() -> None:
    llm = ScriptedLLM("badge")
    hook = LLMChoiceClassifier(llm, name="fake")
    c = GoalCaller(make_scenario(_INFO), hook=hook)
    c.open()
    act = c.respond("What's the number printed on the card you tap at the door?")
    assert act.facts == ["badge_number"] and "B" in act.text and act.classifier == "llm:fake"
    assert hook.calls == 1 and "printed on the card" in llm.prompts[0]


def test_none_of_these_leaves_the_rules_answer() -> None:
    c = GoalCaller(make_scenario(_INFO), hook=LLMChoiceClassifier(ScriptedLLM("nothing matches")))
    c.open()
    act = c.respond("What's the number printed on the card you tap at the door?")
    assert act.facts == [] and act.rule == "no_fact_for_question"


def test_llm_breaks_a_tie_between_options_no_rule_tells_apart() -> None:
    sc = make_scenario({"employee_id": "EMP048271"}, goal="You want a quiet room.")
    c = GoalCaller(sc, hook=LLMChoiceClassifier(ScriptedLLM("Birch"), name="fake"))
    c.open()
    act = c.respond("Two rooms are free. Would you like room Alder or room Birch?")
    assert (
        act.kind == "choose" and act.choice == "room Birch" and act.rule == "option_meets_criteria:llm:fake"
    )
