"""Hand-built conversation records for eval tests (no live loop needed).

`Conv` scripts a conversation on one clock: greeting, caller turns, agent replies, tool
calls; `write()` produces a real record directory through `voxbench.records.write_record`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.records import (
    ConversationRecord,
    EndEvent,
    Event,
    Speech,
    StageTiming,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    Utterance,
    write_record,
)

AGENT = {
    "id": "agent_airline",
    "name": "Test agent",
    "role": "airline agent",
    "instructions": "Help the caller.",
    "tools": [
        {
            "id": "get_reservation",
            "name": "get_reservation",
            "tool_type": "auth",
            "required_parameters": [
                {"name": "confirmation_number", "type": "string"},
                {"name": "last_name", "type": "string"},
            ],
        },
        {
            "id": "rebook_flight",
            "name": "rebook_flight",
            "tool_type": "write",
            "required_parameters": [{"name": "journey_id", "type": "string"}],
        },
    ],
}
INITIAL_DB: dict[str, Any] = {"_current_date": "2026-03-01", "reservations": {"ZK3FFW": {"flight": "SK1"}}}
EXPECTED_DB: dict[str, Any] = {
    "_current_date": "2026-03-01",
    "reservations": {"ZK3FFW": {"flight": "SK2"}},
    "session": {"confirmation_number": "ZK3FFW", "last_name": "rodriguez"},
}


@dataclass
class Conv:
    events: list[Event] = field(default_factory=list)
    end_reason: str = "end_call"
    status: str = "completed"
    scenario_id: str = "1.1.1"
    trial: int = 0

    def agent(self, start: float, end: float, text: str, heard: str | None = None) -> Conv:
        self.events += [
            TTSText(t=start - 0.3, side="agent", channel="agent", text=text),
            Speech(t=start, channel="agent", state="onset"),
            Speech(t=end, channel="agent", state="offset"),
        ]
        if heard is not None:
            self.events.append(Transcript(t=end + 0.4, side="user", channel="agent", text=heard))
        return self

    def user(self, start: float, end: float, text: str, heard: str | None = None) -> Conv:
        self.events += [
            Utterance(t=start - 0.2, side="user", channel="user", text=text),
            Speech(t=start, channel="user", state="onset"),
            Speech(t=end, channel="user", state="offset"),
            Transcript(t=end + 0.3, side="agent", channel="user", text=text if heard is None else heard),
        ]
        return self

    def tool(self, t: float, name: str, args: dict[str, Any], result: dict[str, Any]) -> Conv:
        cid = f"c{len(self.events)}"
        self.events += [
            ToolCall(t=t, side="agent", call_id=cid, name=name, arguments=args),
            ToolResult(
                t=t + 0.05,
                side="agent",
                call_id=cid,
                name=name,
                status=str(result.get("status", "success")),
                result=result,
            ),
        ]
        return self

    def stage(self, t: float, stage: str, seconds: float) -> Conv:
        self.events.append(StageTiming(t=t, side="agent", stage=stage, seconds=seconds))  # type: ignore[arg-type]
        return self

    def write(
        self,
        path: Path,
        final_db: dict[str, Any] | None = None,
        expected_db: dict[str, Any] | None = None,
        end_t: float | None = None,
    ) -> Path:
        """Write the record; the call ends 0.5 s after the last event unless `end_t` says when."""
        last = max((e.t for e in self.events), default=0.0)
        events = [*self.events, EndEvent(t=last + 0.5 if end_t is None else end_t, reason=self.end_reason)]
        rec = ConversationRecord(
            conversation_id=f"{self.scenario_id}/trial_{self.trial}",
            domain="airline",
            scenario_id=self.scenario_id,
            trial=self.trial,
            status=self.status,  # type: ignore[arg-type]
            end_reason=self.end_reason,
        )
        scenario = {
            "id": self.scenario_id,
            "current_date_time": "2026-03-01 10:00 EST",
            "user_goal": {"high_level_user_goal": "move flight"},
            "ground_truth": {"expected_scenario_db": copy.deepcopy(expected_db or EXPECTED_DB)},
        }
        return write_record(
            path, rec, events=events, scenario=scenario, agent=AGENT,
            initial_db=INITIAL_DB, final_db=final_db if final_db is not None else copy.deepcopy(EXPECTED_DB),
        )  # fmt: skip


def small_conversation() -> Conv:
    """Greeting, two caller turns, one tool turn; timings chosen for round scores.

    turn 1: caller 3.0-5.0, agent 6.0-8.0 -> latency 1000 ms (score 1.0)
    turn 2: caller 9.0-11.0, tool call at 11.5, agent 14.0-16.0 -> 3000 ms, tool turn (1.0)
    turn 3: caller 17.0-18.0, agent 20.75-22.0 -> 2750 ms, non-tool (0.5)
    """
    return (
        Conv()
        .agent(0.5, 2.5, "Hello! How can I help you today?", heard="Hello, how can I help you today?")
        .user(
            3.0,
            5.0,
            "I need to change my flight, code Z K three F F W.",
            heard="I need to change my flight code ZK3FFW",
        )
        .agent(
            6.0,
            8.0,
            "Sure. What is the last name on booking ZK3FFW?",
            heard="Sure. What is the last name on booking ZK3FFW?",
        )
        .user(9.0, 11.0, "Rodriguez. Move me to flight SK2 please.")
        .tool(
            11.5,
            "get_reservation",
            {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez"},
            {"status": "success"},
        )
        .tool(12.0, "rebook_flight", {"journey_id": "SK2"}, {"status": "success"})
        .agent(
            14.0,
            16.0,
            "Done. You are on flight SK2 for $120.",
            heard="Done. You are on flight SK2 for 120 dollars.",
        )
        .user(17.0, 18.0, "Thanks, bye.")
        .agent(20.75, 22.0, "Goodbye!", heard="Goodbye!")
        .stage(6.0, "llm_ttft", 0.4)
        .stage(14.0, "llm_ttft", 0.6)
        .stage(5.2, "stt", 0.2)
    )
