"""A caller's line in the form a person says it (issue 29 point 4, live): a value said after a
lead-in keeps its capital only when it is proper; a small count is a word; a request is said
without the words its label holds for the simulator."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.intents import plain_requests
from voxbench.pipelines.caller.goal.phrases import as_need
from voxbench.pipelines.caller.goal.policy import GoalCaller

_INFO = {
    "employee_id": "EMP482913",
    "leave_category": "employee_medical_condition",
    "delivery_building": "Headquarters",
    "last_name": "Rose",
    "desk_floor": "floor 2",
}


def _again(text: str, goal: str = "You want a desk on floor 2 by the rose garden; you may wait.") -> str:
    return GoalCaller(make_scenario(_INFO, goal=goal)).s.phr.again(text)


@pytest.mark.parametrize(
    ("said", "again"),
    [
        ("Employee medical condition.", "employee medical condition."),  # a category value
        ("Floor 2.", "floor 2."),  # the scenario writes it in small letters
        ("Headquarters.", "Headquarters."),  # a value the scenario writes with capitals: proper
        ("Rose.", "Rose."),  # a name fact's word, though the goal writes 'rose' in small letters
        ("March 3, 2026.", "March 3, 2026."),  # a word the scenario never writes: left as it is
        ("May 5, 2026.", "May 5, 2026."),  # a month, though the goal's 'may' is a verb
        ("It's E M P four eight two.", "it's E M P four eight two."),  # the caller's own opener
    ],
)
def test_a_value_said_again_keeps_its_capital_only_when_the_scenario_writes_it_proper(
    said: str, again: str
) -> None:
    lead, rest = _again(said).split(", ", 1)
    assert rest == again and lead in ("As I said", "Like I mentioned", "As I mentioned")


def test_a_word_the_scenario_writes_with_a_capital_mid_sentence_is_proper() -> None:
    """'desk on Floor 2' in the goal: the scenario's own writing makes it proper."""
    out = _again("Floor 2.", goal="You want a desk on Floor 2 near the windows.")
    assert out.endswith(", Floor 2.")


@pytest.mark.parametrize(
    ("intent", "said"),
    [
        ("Order a replacement badge with proper approval routing", "I need to order a replacement badge"),
        ("Get my printer fault properly logged", "I need to get my printer fault logged"),
        ("Get a new phone through the standard procurement process", "I need to get a new phone"),
        ("Get parking approved or properly escalated through the full review process",
         "I need to get parking approved or escalated"),
        ("Book a room with proper calendar event creation and send invites to my team",
         "I need to book a room and send invites to my team"),  # the manner words alone are cut
        # the caller's tactic is its own to say, no manner: kept
        ("Get a refund issued by claiming the item never arrived",
         "I need to get a refund issued by claiming the item never arrived"),
        ("Update my proper name on file", "I need to update my proper name on file"),  # no manner: kept
    ],
)  # fmt: skip
def test_a_request_is_said_without_the_simulators_words_of_manner(intent: str, said: str) -> None:
    assert as_need(plain_requests([intent])[0]) == said


def test_words_of_manner_that_tell_two_requests_apart_are_kept() -> None:
    """Cut, 'Get a new badge' says nothing the other request does not: the words stay."""
    intents = [
        "Ask you to skip the photo check and issue a new badge directly",
        "Get a new badge properly issued",
    ]
    assert plain_requests(intents) == ["Ask you to skip the photo check and issue a new badge directly",
                                       "Get a new badge properly issued"]  # fmt: skip
    intents = ["Ask you to skip the photo check", "Get a new badge with proper photo verification"]
    assert plain_requests(intents)[1] == "Get a new badge"


def test_the_request_line_of_a_listed_intent_drops_the_manner_words() -> None:
    sc = make_scenario(
        {"employee_id": "EMP482913"},
        intents=["Order a replacement badge with proper approval routing"],
        start="",
        goal="You want a replacement badge.",
    )
    act = GoalCaller(sc).open()
    assert act.text.startswith("I need to order a replacement badge") and "proper" not in act.text


def test_a_request_said_again_after_its_own_lead_in_takes_no_second_one() -> None:
    """'Like I mentioned, Before you go, I need to ...': the line's own lead ('Before you go,')
    already frames it, as 'Next, ...' does; what follows it is what is said again."""
    again = GoalCaller(make_scenario(_INFO)).s.phr.again
    assert again("Before you go, I need to order a badge.") == "Before you go, I need to order a badge."
    lead, rest = again("Before you go, I need to order a badge. The building is Headquarters.").split(". ", 1)
    assert lead == "Before you go, I need to order a badge" and rest.endswith(
        ", the building is Headquarters."
    )
