"""Small hand-made conversations for the offline judges, in EVA's trace-event format."""

from __future__ import annotations

from typing import Any

from voxbench.eval.calibration_items import trace_from_events
from voxbench.eval.context import ConversationContext

POLICY = (
    "Explain before acting. Before making any change, inform the caller of any fees. "
    "Get explicit confirmation before proceeding. Cancellation fee: $100 for non-refundable fares."
)
ROLE = "You are a voice agent for SkyWay Airlines."
TOOLS: list[dict[str, Any]] = [
    {"name": "get_reservation", "tool_type": "auth"},
    {"name": "cancel_reservation", "tool_type": "write"},
    {"name": "process_refund", "tool_type": "write"},
]
RESERVATION = {
    "status": "success",
    "reservation": {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez", "total_fare": 260,
                    "fare_type": "refundable", "segments": [{"flight_number": "SK412", "departure_time": "14:45"}]},
}  # fmt: skip


def U(text: str) -> dict[str, Any]:
    return {"event_type": "user_utterance", "utterance": text}


def A(text: str) -> dict[str, Any]:
    return {"event_type": "agent_utterance", "utterance": text}


def call(name: str, **params: Any) -> dict[str, Any]:
    return {"event_type": "tool_call", "tool_name": name, "params": params}


def result(name: str, response: dict[str, Any]) -> dict[str, Any]:
    return {"event_type": "tool_response", "tool_name": name, "response": response}


def context(events: list[dict[str, Any]], **kw: Any) -> ConversationContext:
    """A context like calibration builds from a validation item (agent = SkyWay policy)."""
    ctx = ConversationContext(record_id="test", conversation_trace=trace_from_events(events))
    ctx.agent_role, ctx.agent_instructions, ctx.agent_tools = ROLE, POLICY, TOOLS
    for e in ctx.conversation_trace:
        t = e["turn_id"]
        if e.get("role") == "user":
            ctx.intended_user_turns[t] = (ctx.intended_user_turns.get(t, "") + " " + e["content"]).strip()
            ctx.transcribed_user_turns[t] = ctx.intended_user_turns[t]
        elif e.get("role") == "assistant":
            ctx.intended_assistant_turns[t] = (
                ctx.intended_assistant_turns.get(t, "") + " " + e["content"]
            ).strip()
    for k, v in kw.items():
        setattr(ctx, k, v)
    return ctx


def lookup() -> list[dict[str, Any]]:
    """Greeting, caller gives code and name, agent looks it up and reads it back."""
    return [
        A("Hi, how can I help you today?"),
        U("I want to cancel my flight. My confirmation code is Z K three F F W, last name Rodriguez."),
        call("get_reservation", confirmation_number="ZK3FFW", last_name="Rodriguez"),
        result("get_reservation", RESERVATION),
        A("I found reservation Z K three F F W, flight S K four one two at two forty-five PM. The fare is "
          "refundable, so cancelling refunds the full two hundred sixty dollars. Shall I cancel it?"),
    ]  # fmt: skip
