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
        return Reply(
            text="Z K three F F W." if "confirmation" in agent_text else "Thanks, bye.", ends_call=True
        )


def test_volunteered_facts_are_counted_apart() -> None:
    sc = make_scenario({"confirmation_number": "ZK3FFW", "origin": "AUS", "destination": "LAX"}, trace=TRACE)
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


class _Scripted:
    """Says its lines in order, one per agent turn: a caller under test with fixed replies."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)

    def open(self) -> Reply:
        return Reply(text="Hi.")

    def respond(self, agent_text: str) -> Reply:
        return Reply(text=self.lines.pop(0) if self.lines else "Thanks.")


ROUTE = {"confirmation_number": "ZK3FFW", "origin": "AUS", "destination": "LAX"}


def _said_before(trace: list[tuple[str, str]], lines: list[str]) -> tuple[int, int]:
    t = by_domain(check_all([("airline", make_scenario(ROUTE, trace=trace))], lambda d, s: _Scripted(lines)))
    o = t["overall"]
    assert o.summary()["facts_volunteered_said_before"] == o.facts_volunteered_said_before
    left = o.facts_expected - o.facts_volunteered_said_before
    apart = o.summary()["facts_withheld_repeats_apart_pct"]
    assert apart == (
        round(100 * (o.facts_withheld - o.facts_volunteered_said_before) / left, 1) if left else None
    )
    return o.facts_volunteered_withheld, o.facts_volunteered_said_before


def test_volunteered_facts_said_before_are_counted_apart() -> None:
    """The reference said its route again with the code; the caller had said it a turn before."""
    trace = [
        ("agent", "Hi, how can I help you today?"),
        ("user", "I need to change my flight from AUS to LAX."),
        ("agent", "May I have your confirmation number?"),
        ("user", "Z K three F F W. It's AUS to LAX."),
    ]
    assert _said_before(trace, ["I need to change my flight from AUS to LAX.", "Z K three F F W."]) == (2, 2)
    # never said: withheld at both turns (the first asks what it needs), none of them a repeat
    assert _said_before(trace, ["I need to change my flight.", "Z K three F F W."]) == (4, 0)


def test_a_turn_about_the_field_is_no_repeat() -> None:
    """The agent's turn says a word of the key ('departure' of ``departure_airport``), perhaps
    reading it back wrong: a correction the caller did not make is its own miss, not a repeat."""
    info = {"confirmation_number": "ZK3FFW", "departure_airport": "AUS", "arrival_airport": "LAX"}
    trace = [
        ("agent", "Hi, how can I help you today?"),
        ("user", "I need to change my flight from AUS to LAX."),
        ("agent", "I have the departure as ORD. May I have your confirmation number?"),
        ("user", "Z K three F F W. I leave from AUS, to LAX."),
    ]
    lines = ["I need to change my flight from AUS to LAX.", "Z K three F F W."]
    t = by_domain(check_all([("airline", make_scenario(info, trace=trace))], lambda d, s: _Scripted(lines)))
    assert (t["overall"].facts_volunteered_withheld, t["overall"].facts_volunteered_said_before) == (2, 1)


def _over(trace: list[tuple[str, str]], lines: list[str]) -> list[list[str]]:
    res = check_all([("airline", make_scenario(ROUTE, trace=trace))], lambda d, s: _Scripted(lines))
    t = by_domain(res)["overall"]
    assert t.facts_over_volunteered == sum(len(r.over_volunteered) for r in res[0].rows)
    assert t.summary()["over_volunteered_per_turn"] == round(t.facts_over_volunteered / t.turns, 3)
    return [r.over_volunteered for r in res[0].rows]


OVER_TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "I need to change my flight."),
    ("agent", "Where are you flying from?"),
    ("user", "From AUS."),
    ("agent", "And your confirmation number?"),
    ("user", "Z K three F F W."),
]


def test_facts_told_unasked_beyond_the_reference_are_over_volunteered() -> None:
    """The code blurted at the first turn is told unasked and the reference did not say it there;
    the destination too, once; asked for later, or said again, it is not counted again."""
    lines = ["I need to change my flight. My code is Z K three F F W.", "From AUS, to LAX.",
             "Z K three F F W, going to LAX."]  # fmt: skip
    assert _over(OVER_TRACE, lines) == [["confirmation_number"], ["destination"], []]


def test_what_the_reference_said_or_the_agent_asked_is_not_over_volunteered() -> None:
    """Said where the reference said it, or asked by the turn's words: nothing over-volunteered."""
    assert _over(OVER_TRACE, ["I need to change my flight.", "From AUS.", "Z K three F F W."]) == [[], [], []]
    trace = [*OVER_TRACE[:4], ("agent", "What is the destination?"), ("user", "Hmm.")]
    assert _over(trace, ["I need to change my flight.", "From AUS.", "LAX."]) == [[], [], []]
