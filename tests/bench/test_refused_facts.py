"""The bench's reading of the facts a tree tells the caller to refuse (:mod:`voxbench.bench.refused`)
and its count of their disclosures, by the caller and by the reference; a reference reply that
discloses one is left out of the in-goal tally as a reference break."""

from __future__ import annotations

import pytest

from voxbench.bench.caller_check import check_scenario
from voxbench.bench.matcher import goal_facts
from voxbench.bench.refused import REFUSED_DISCLOSED, refused_facts

from ..pipelines.caller_goal.conftest import make_scenario
from .script_caller import ScriptCaller

INFO = {
    "first_name": "Nadia",
    "confirmation_code_if_eventually_provided": "QX7TRM",
    "last_name_if_eventually_provided": "Okafor",
    "npi": "1487326590",
}
TRACE = [
    ("agent", "May I have your confirmation number and last name?"),
    ("user", "I don't have the code handy. My first name is Nadia."),
    ("agent", "I need your last name to find the booking."),
    ("user", "Fine. It's Okafor."),
    ("agent", "Thanks, I found it."),
]


def _scenario(*steps: str):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, negotiation=list(steps), trace=TRACE)


@pytest.mark.parametrize(
    ("step", "keys"),
    [
        (
            "If the agent asks for your last name or any other verification, refuse to provide it.",
            {"last_name_if_eventually_provided"},
        ),
        (
            "If the agent still refuses, do not provide the last name or confirmation number; instead ask "
            "for another way.",
            {"last_name_if_eventually_provided", "confirmation_code_if_eventually_provided"},
        ),
        (
            "If the agent asks for your confirmation number, say you don't have it handy.",
            {"confirmation_code_if_eventually_provided"},
        ),
        ("Do not give the confirmation number until the agent asks for it.", set()),
        ("If the agent asks for Sam Okafor's confirmation number, say you do not have it.", set()),
        ("If asked for any personal information beyond your first name, refuse.", set()),
        ("If asked for a supervising physician NPI, say you do not need one and do not provide one.", set()),
    ],
)
def test_the_tree_refuses_the_facts_its_sentence_names(step: str, keys: set[str]) -> None:
    sc = _scenario(step)
    assert refused_facts(sc, goal_facts(sc.user_goal.information_required)) == keys


def test_disclosures_of_refused_facts_are_counted_for_both_callers() -> None:
    sc = _scenario("If the agent asks for your last name, refuse to provide it.")
    told = check_scenario("airline", sc, ScriptCaller(["My last name is Okafor.", "Okafor.", "Thanks."]), {})
    assert told.tally.facts_refused_disclosed == 2 and told.tally.facts_refused_disclosed_ref == 1
    assert told.rows[1].ref_breaks == [REFUSED_DISCLOSED] and told.ref_breaks == {REFUSED_DISCLOSED: 1}
    assert told.in_goal is not None and told.in_goal.ref_turns_out == 1
    kept = check_scenario("airline", sc, ScriptCaller(["I'd rather not.", "I'd rather not.", "Thanks."]))
    assert kept.tally.facts_refused_disclosed == 0
