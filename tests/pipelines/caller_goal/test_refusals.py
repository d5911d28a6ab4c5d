"""Facts the tree tells the caller to refuse (:mod:`.goal.refusals`): asked for one, the caller
says what the tree says instead, the next refusing sentence each time, and never the fact, until
the tree's own condition gives it up; a 'do not give X until asked', a thing of someone else's
and what an exception leaves out are no refusals."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.pipelines.caller.goal.refusals import REFUSES_FACT, Refusals, read_refusal

INFO = {
    "first_name": "Nadia",
    "destination_city": "Denver",
    "booking_code_if_eventually_provided": "QX7TRM",
    "last_name_if_eventually_provided": "Okafor",
    "npi": "1487326590",
}
BOOK = goal_facts(INFO)
STEPS = [
    "If the agent asks for your booking code, say you can't find it right now and ask them to find you by "
    "first name (Nadia) and destination (Denver) instead.",
    "If the agent asks for your last name or any other verification, refuse to provide it and repeat that "
    "your first name should be enough.",
    "If the agent still insists, do not provide the last name or booking code; instead ask if there is "
    "another way to find the trip (for example, by email).",
]


@pytest.mark.parametrize(
    ("sentence", "keys"),
    [
        (STEPS[0], ["booking_code_if_eventually_provided"]),
        (STEPS[1], ["last_name_if_eventually_provided"]),
        (STEPS[2], ["last_name_if_eventually_provided", "booking_code_if_eventually_provided"]),
        ("Do not give the booking code or last name until the agent asks for them.", []),  # volunteering
        ("If the agent asks for Sam Okafor's booking code, say you do not have it.", []),  # someone else's
        ("If asked for any personal detail beyond your first name, refuse.", []),  # the exception
        ("If asked for a supervising physician NPI, say you do not need one and do not provide one.", []),
    ],
)
def test_a_sentence_refuses_the_facts_it_names(sentence: str, keys: list[str]) -> None:
    assert read_refusal(sentence, BOOK)[0] == keys


def test_the_line_is_the_trees_words_in_the_first_person() -> None:
    _, line, bare = read_refusal(STEPS[0], BOOK)
    assert (
        line
        == "I can't find it right now. Could you find me by first name Nadia and destination Denver instead?"
    )
    assert not bare
    assert read_refusal(STEPS[2], BOOK)[1] == "Is there another way to find the trip?"  # the aside unsaid


def test_each_ask_gets_the_next_refusing_sentence_then_the_last_again() -> None:
    r = Refusals.of(STEPS, BOOK)
    phr = Phrasing(0, "")
    kept, lines = r.hold(["first_name", "last_name_if_eventually_provided"], phr)
    assert kept == ["first_name"] and lines[0].endswith("My first name should be enough.")
    assert r.hold(["last_name_if_eventually_provided"], phr)[1][0].endswith(
        "Is there another way to find the trip?"
    )
    assert r.hold(["last_name_if_eventually_provided"], phr)[1][0].endswith(
        "Is there another way to find the trip?"
    )
    assert r.hold(["npi"], phr) == (["npi"], [])


def test_the_tree_releases_a_fact_on_insistence() -> None:
    steps = [
        "If the agent asks for your last name, refuse to provide it.",
        "If the agent asks again, provide your last name.",
    ]
    r = Refusals.of(steps, BOOK)
    phr = Phrasing(0, "")
    assert r.hold(["last_name_if_eventually_provided"], phr)[0] == []
    assert r.hold(["last_name_if_eventually_provided"], phr) == (["last_name_if_eventually_provided"], [])


def test_the_caller_refuses_and_never_says_the_fact() -> None:
    sc = make_scenario(INFO, negotiation=STEPS, goal="You want your trip found without giving your code.")
    c = opened(sc)
    act = c.respond("Please tell me your booking code and your last name.")
    assert act.rule == REFUSES_FACT and act.kind == "refuse"
    assert "Q X" not in act.text and "Okafor" not in act.text and "Denver" in act.text
    act = c.respond("For security I need the booking code and last name. What is your last name?")
    assert act.kind == "refuse" and act.rule == REFUSES_FACT
    assert "Okafor" not in act.text and "Q X seven" not in act.text
    assert (
        "booking_code_if_eventually_provided" not in c.given
        and "last_name_if_eventually_provided" not in c.given
    )


def test_a_refused_fact_read_back_wrong_is_not_corrected_with_its_value() -> None:
    sc = make_scenario(INFO, negotiation=STEPS, goal="You want your trip found without giving your code.")
    c = opened(sc)
    act = c.respond("I have your last name as Okafer. Is that right?")
    assert act.kind == "correct" and "Okafor" not in act.text
    assert "last_name_if_eventually_provided" not in c.given


def test_a_tree_with_no_refusal_answers_as_before() -> None:
    sc = make_scenario(INFO, goal="You want your trip found.")
    act = opened(sc).respond("Please tell me your booking code and your last name.")
    assert "Q X seven T R M" in act.text and "Okafor" in act.text
