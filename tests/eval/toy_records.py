"""Real records of the toy domain for eval tests: the ToolExecutor runs the agent's tool
calls against the scenario's starting database, so the final database is what the calls
really produce (no hand-written end states)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.records import (
    ConversationRecord,
    EndEvent,
    Event,
    Speech,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    Utterance,
    write_record,
)
from voxbench.scenarios import ToolExecutor
from voxbench.scenarios.loader import load_dataset, toy_dataset_dir

DD = load_dataset(toy_dataset_dir()).domains["toy"]


@dataclass
class ToyCall:
    """A toy-domain call scripted on one clock; tool calls run through the real executor."""

    scenario_id: str = "ty.1"
    trial: int = 0
    status: str = "completed"
    end_reason: str = "end_call"
    error: str | None = None
    error_source: str | None = None
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        sc = DD.scenarios[self.scenario_id]
        self.executor = ToolExecutor("toy", DD.initial_db(self.scenario_id), sc.current_date_time, DD.agent)

    @property
    def email(self) -> str:
        return str(DD.initial_db(self.scenario_id)["orders"]["ORD-4821"]["email"])

    def user(self, start: float, end: float, text: str, heard: str | None = None) -> ToyCall:
        self.events += [
            Utterance(t=start - 0.2, side="user", channel="user", text=text),
            Speech(t=start, channel="user", state="onset"),
            Speech(t=end, channel="user", state="offset"),
            Transcript(t=end + 0.3, side="agent", channel="user", text=text if heard is None else heard),
        ]
        return self

    def agent(self, start: float, end: float, text: str, heard: str | None = None) -> ToyCall:
        self.events += [
            TTSText(t=start - 0.3, side="agent", channel="agent", text=text),
            Speech(t=start, channel="agent", state="onset"),
            Speech(t=end, channel="agent", state="offset"),
            Transcript(t=end + 0.4, side="user", channel="agent", text=text if heard is None else heard),
        ]
        return self

    def tool(self, t: float, name: str, **args: Any) -> ToyCall:
        out = self.executor.execute(name, args)
        cid = f"c{len(self.events)}"
        self.events += [
            ToolCall(t=t, side="agent", call_id=cid, name=name, arguments=args),
            ToolResult(t=t + 0.05, side="agent", call_id=cid, name=name, status=out["status"], result=out),
        ]
        return self

    def write(self, path: Path) -> Path:
        last = max((e.t for e in self.events), default=0.0)
        sc = DD.scenarios[self.scenario_id]
        rec = ConversationRecord(
            conversation_id=f"toy__{self.scenario_id}__t{self.trial}",
            domain="toy",
            scenario_id=self.scenario_id,
            trial=self.trial,
            status=self.status,  # type: ignore[arg-type]
            end_reason=self.end_reason,  # type: ignore[arg-type]
            error=self.error,
            error_source=self.error_source,
        )
        resolver = DD.resolver(sc)
        scenario = resolver.resolve(sc.model_dump(mode="json"))
        scenario["ground_truth"]["expected_scenario_db"] = DD.expected_db(self.scenario_id)
        return write_record(
            path,
            rec,
            events=[*self.events, EndEvent(t=last + 0.5, reason=self.end_reason)],  # type: ignore[arg-type]
            scenario=scenario,
            agent=DD.agent.model_dump(mode="json"),
            initial_db=self.executor.initial_db,
            final_db=self.executor.db,
        )


def cancel_call(trial: int = 0, *, latency: float = 1.0, heard_order: str | None = None) -> ToyCall:
    """ty.1 done right: verify at 4.6 s (turn 1), cancel at 9.6 s (turn 2)."""
    c = ToyCall("ty.1", trial)
    c.agent(0.5, 2.0, "Pebble Shop, how can I help?")
    said = f"Cancel order ORD-4821 please, email {c.email}."
    c.user(2.5, 4.0, said, heard=None if heard_order is None else said.replace("ORD-4821", heard_order))
    order = heard_order or "ORD-4821"
    c.tool(4.6, "find_order", order_id=order, email=c.email)
    a1 = 4.0 + latency
    c.agent(a1, a1 + 1.5, f"I found order {order}. Cancel it?")
    c.user(a1 + 2.0, a1 + 3.0, "Yes, I ordered it by mistake.")
    c.tool(a1 + 3.6, "cancel_order", order_id=order, reason="ordered_by_mistake")
    a2 = a1 + 3.0 + latency
    c.agent(a2, a2 + 1.5, "Done, refund RF-4821 is on its way.")
    c.user(a2 + 2.0, a2 + 2.6, "Thanks, bye.")
    return c
