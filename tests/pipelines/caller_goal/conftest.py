"""Small hand-made scenarios for the goal caller (no EVA data needed)."""

from __future__ import annotations

from typing import Any

import pytest

from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario


def make_scenario(
    info: dict[str, Any],
    *,
    goal: str = "You want to move your flight to an earlier one today.",
    must: list[str] | None = None,
    negotiation: list[str] | None = None,
    escalation: str = "If the agent offers to transfer you to a live agent, you must decline.",
    edge: list[str] | None = None,
    intents: list[str] | None = None,
    start: str = "Hi, I need to change my flight.",
    persona: str = "",
    trace: list[tuple[str, str]] | None = None,
    seed_data: dict[str, Any] | None = None,
    end_reason: str | None = None,
) -> Scenario:
    data: dict[str, Any] = {
        "id": "t.1",
        "current_date_time": "2026-06-18 09:00 PST",
        "user_goal": {
            "high_level_user_goal": goal,
            "decision_tree": {
                "must_have_criteria": must or [],
                "negotiation_behavior": negotiation or [],
                "resolution_condition": "The change is confirmed. End the call.",
                "failure_condition": "If the agent cannot help, say goodbye and end the call.",
                "escalation_behavior": escalation,
                "edge_cases": edge or [],
            },
            "information_required": info,
        },
        "user_config": {"name": "Ana Lima", "user_persona": persona},
        "scenario_context": {"intents": [{"intent": i, "satisfiable": True} for i in intents]}
        if intents
        else {},
        "ground_truth": {"expected_scenario_db": {}},
        "starting_utterances": {"en": start},
        "seed_data": seed_data,
    }
    if trace is not None:
        data["ground_truth"]["expected_trace"] = {
            "trace": [  # ("tool", name): the agent calls a tool there
                {"event_type": "tool_call", "tool_name": text, "params": {}}
                if who == "tool"
                else {
                    "event_type": "agent_utterance" if who == "agent" else "user_utterance",
                    "utterance": text,
                }
                for who, text in trace
            ],
            **({"end_reason": end_reason} if end_reason else {}),
        }
    return Scenario.model_validate(data)


@pytest.fixture
def airline() -> Scenario:
    return make_scenario(
        {
            "confirmation_number": "ZK3FFW",
            "last_name": "Lima",
            "seat_preference": {"first_choice": "window", "second_choice": "aisle"},
        },
        must=[
            "The new flight departs before 2:00 PM today.",
            "The change fee is under $80.",
            "It is a direct flight.",
        ],
        negotiation=[
            "If the agent offers several options that meet the must-haves, choose the earliest departure.",
            'If the agent refuses to waive the fee, push back once by saying: "I was told the fee would be waived for this change."',
        ],
    )


@pytest.fixture
def itsm() -> Scenario:
    return make_scenario(
        {
            "employee_id": "EMP048271",
            "phone_last_four": "7294",
            "meeting_date": "2026-10-15",
            "start_time": "14:00",
            "delivery_building": "Headquarters",
            "delivery_floor": "FL2",
        },
        goal="You need a monitor delivered and a room booked.",
        intents=["Get a monitor delivered to my desk", "Book a conference room"],
        start="Hi, I have two requests.",
        negotiation=[
            "If the agent asks you to try restarting, say you already did and it is still not working.",
            "Forgetting the saved network and reconnecting fixes the issue; after that step, say it works now.",
        ],
        escalation="Do not ask to speak to a supervisor or live agent. If the agent offers to transfer you, decline.",
    )


def opened(sc: Scenario, seed: int = 0) -> GoalCaller:
    """A goal caller for ``sc`` (phrasings seeded by ``seed``) that has said its opening line."""
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    return c
