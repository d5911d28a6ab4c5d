"""The bench tells facts the agent asked for from facts the reference caller volunteered, and reads
a short value in capitals ('US') only as written, never as the word 'us'."""

from __future__ import annotations

import pytest

from voxbench.bench.caller_check import Reply, by_domain, check_all
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.reference import key_words, names_fact

from ..pipelines.caller_goal.conftest import make_scenario


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("original_travel_details.0.origin", ["origin"]),
        ("desired_return_date", ["return", "date"]),
        ("Latest acceptable arrival time (local at destination)", ["latest", "acceptable", "arrival", "time",
                                                                   "destination"]),
        ("aggregate_limit_usd", ["aggregate", "limit"]),
        ("pto_type", ["pto"]),
    ],
)  # fmt: skip
def test_key_words(key: str, words: list[str]) -> None:
    assert key_words(key) == words


@pytest.mark.parametrize(
    ("agent", "key"),
    [
        ("What new return date would you like?", "desired_return_date"),
        ("What are your planned leave start and end dates?", "leave_start_date"),
        ("Please give me the aggregate limit.", "aggregate_limit_usd"),
        ("Will you use general paid time off or sick leave?", "pto_type"),
        ("Which P T O type?", "pto_type"),
    ],
)
def test_asked_by_name(agent: str, key: str) -> None:
    assert names_fact(agent, key)


@pytest.mark.parametrize(
    ("agent", "key"),
    [
        ("What new return date would you like?", "original_outbound_date"),
        ("May I have your confirmation number and last name?", "original_travel_details.0.origin"),
        ("What are your planned leave start and end dates?", "leave_category"),
    ],
)
def test_not_asked(agent: str, key: str) -> None:
    assert not names_fact(agent, key)
    assert names_fact(agent, key, option_hit=True)  # the option the reference took is asked


@pytest.mark.parametrize("said", ["U S.", "US, please.", "It's U.S.", "The country is U-S."])
def test_short_capitals_said(said: str) -> None:
    assert facts_said(said, goal_facts({"issuing_country_code": "US"})) == ["issuing_country_code"]


@pytest.mark.parametrize("said", ["Let's do onboarding first.", "Could you help us?", "Tell us more."])
def test_short_capitals_not_a_word(said: str) -> None:
    assert facts_said(said, goal_facts({"issuing_country_code": "US"})) == []


TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need to change my flight."),
    ("agent", "May I have your confirmation number?"),
    ("user", "Z K three F F W. I'm flying AUS to LAX."),
    ("agent", "You're all set."),
]


class _CodeOnly:
    """Gives the confirmation number only: what was asked."""

    def open(self) -> Reply:
        return Reply(text="hi")

    def respond(self, agent_text: str) -> Reply:
        return Reply(text="Z K three F F W." if "confirmation" in agent_text else "Thanks, bye.", ends_call=True)


def test_volunteered_facts_are_counted_apart() -> None:
    sc = make_scenario(
        {"confirmation_number": "ZK3FFW", "origin": "AUS", "destination": "LAX"}, trace=TRACE
    )
    t = by_domain(check_all([("airline", sc)], lambda d, s: _CodeOnly()))["overall"]
    assert t.requests == 1 and t.facts_expected == 3 and t.facts_withheld == 2
    assert t.facts_asked == 1 and t.facts_withheld_asked == 0
    assert t.facts_volunteered == 2 and t.facts_volunteered_withheld == 2
    s = t.summary()
    assert s["facts_withheld_asked_pct"] == 0.0 and s["facts_volunteered_not_given"] == 2


@pytest.mark.parametrize("said", ["My floor is F L one.", "F L one.", "Floor one, please.", "It's FL1."])
def test_a_code_with_one_spelled(said: str) -> None:
    """EVA's normaliser leaves 'one' a word: in a spelled code it is the digit."""
    assert facts_said(said, goal_facts({"floor": "FL1"})) == ["floor"]
