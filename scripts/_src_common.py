"""Helpers shared by the built-in scenario sources (trace events, decision trees)."""

from __future__ import annotations

from typing import Any

EDGE = [
    "If the agent asks whether there is anything else, say no, thank them and end the call.",
    "Never invent new requests beyond your goal.",
    "Do not ask for a supervisor.",
]


def u(text: str) -> dict[str, Any]:
    return {"event_type": "user_utterance", "utterance": text}


def a(text: str) -> dict[str, Any]:
    return {"event_type": "agent_utterance", "utterance": text}


def call(name: str, **params: Any) -> dict[str, Any]:
    return {"event_type": "tool_call", "tool_name": name, "params": params}


def names(first: str, last: str, phone: str) -> dict[str, Any]:
    return {"en": {"first_name": first, "last_name": last, "phone": phone}}


def goal(
    goal_text: str,
    must: list[str],
    info: dict[str, Any],
    resolution: str,
    negotiation: list[str],
    edge: list[str] | None = None,
) -> dict[str, Any]:
    return {
        "high_level_user_goal": goal_text,
        "decision_tree": {
            "must_have_criteria": must,
            "nice_to_have_criteria": [],
            "negotiation_behavior": negotiation,
            "resolution_condition": resolution,
            "failure_condition": "If the agent cannot do it after two tries, say goodbye and end the call.",
            "escalation_behavior": "Do not ask for a live agent. If offered a transfer, decline.",
            "edge_cases": [*EDGE, *(edge or [])],
        },
        "information_required": info,
    }
