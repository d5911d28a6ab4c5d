"""The conversation as the offline judges read it: ordered steps, what each side knew when,
and the agent's tools by kind (read / write / system).

A claim or a tool parameter is *grounded* when a source available at that point holds it:
something the caller said before, a tool result returned before, the policy / role text or
the system context (current date and time). `Step.known` is that set of value keys
(`voxbench.eval.offline._values`), built once per conversation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._values import data_keys, money_keys, scalar_keys, spoken_money, text_keys

_READ_PREFIX = re.compile(
    r"^(get|search|find|list|lookup|look_up|check|query|fetch|read|view|retrieve|show|verify|validate|"
    r"authenticate|calculate|estimate|compute)_?"
)
_SYSTEM = re.compile(r"transfer|escalat|end_call|hang_?up|handoff")
# writes that add something the caller is owed or moves ancillaries: no confirmation rule
_ANCILLARY = re.compile(r"seat|bag|meal|voucher|note|comment|log_")


@dataclass
class Step:
    """One trace entry with the value keys known before it (caller, tools, policy)."""

    i: int
    turn: int
    kind: str  # "user" | "assistant" | "tool_call" | "tool_response"
    text: str = ""
    tool: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    response: dict[str, Any] = field(default_factory=dict)
    known: set[str] = field(default_factory=set)
    known_text: str = ""


@dataclass
class Conversation:
    steps: list[Step]
    tool_kinds: dict[str, str]
    enums: set[tuple[str, str]]
    policy_keys: set[str]
    policy_text: str
    has_policy: bool

    def tool_kind(self, name: str) -> str:
        return self.tool_kinds.get(name) or infer_tool_kind(name)

    def assistant(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "assistant"]

    def user(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "user"]


def infer_tool_kind(name: str) -> str:
    n = name.lower()
    if _SYSTEM.search(n):
        return "system"
    if _READ_PREFIX.match(n) or re.search(r"otp|auth|verif|login", n):
        return "read"
    return "write"


def is_ancillary(name: str) -> bool:
    return bool(_ANCILLARY.search(name.lower()))


def tool_kinds(tools: list[dict[str, Any]]) -> dict[str, str]:
    """Tool name -> kind, from either tool format (EVA/voxbench spec with `tool_type`, or the
    OpenAI function schema, whose kind is inferred from the name)."""
    out: dict[str, str] = {}
    for t in tools:
        f = t.get("function")
        fn: dict[str, Any] = f if isinstance(f, dict) else {}
        name = t.get("name") or fn.get("name")
        if not name:
            continue
        kind = t.get("tool_type") or infer_tool_kind(str(name))
        out[str(name)] = "read" if kind == "auth" else str(kind)
    return out


def enum_values(tools: list[dict[str, Any]]) -> dict[tuple[str, str], set[str]]:
    """(tool, parameter) -> the values its schema allows, from either tool format."""
    out: dict[tuple[str, str], set[str]] = {}
    for t in tools:
        f = t.get("function")
        if isinstance(f, dict):
            props = ((f.get("parameters") or {}).get("properties") or {}).items()
            for k, v in props:
                if isinstance(v, dict) and v.get("enum"):
                    out[(str(f.get("name")), str(k))] = {str(x) for x in v["enum"]}
        for p in [*(t.get("required_parameters") or []), *(t.get("optional_parameters") or [])]:
            if isinstance(p, dict) and p.get("enum"):
                out[(str(t.get("name")), str(p.get("name")))] = {str(x) for x in p["enum"]}
    return out


def enum_params(tools: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(tool, parameter) pairs whose schema lists allowed values: categorical, not facts."""
    return set(enum_values(tools))


def tool_names(tools: list[dict[str, Any]]) -> list[str]:
    return list(tool_kinds(tools))


def as_dict(x: Any) -> dict[str, Any]:
    """Tool parameters or a result as a mapping: a JSON object given as a string (how some traces
    record them) is read as that object, so its fields and an ``is_error`` flag are seen."""
    if isinstance(x, str) and x.lstrip().startswith("{"):
        try:
            parsed = json.loads(x)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    return x if isinstance(x, dict) else {"value": x} if x is not None else {}


def read_conversation(ctx: ConversationContext) -> Conversation:
    """Walk the trace once; each step knows the keys of everything before it."""
    policy_text = "\n".join(x for x in (ctx.agent_role, ctx.agent_instructions) if x)
    policy_keys = (
        text_keys(policy_text)
        | scalar_keys(ctx.current_date_time)
        | text_keys(ctx.current_date_time)
        | spoken_money(policy_text)
    )
    known = set(policy_keys)
    known_text: list[str] = [policy_text.lower()]
    steps: list[Step] = []
    for i, e in enumerate(ctx.conversation_trace):
        turn = int(e.get("turn_id", 0))
        role, typ = e.get("role"), e.get("type")
        snap = Step(i=i, turn=turn, kind="", known=set(known), known_text=" ".join(known_text))
        if role == "user":
            snap.kind, snap.text = "user", _plain(str(e.get("content", "")))
            known |= text_keys(snap.text) | spoken_money(snap.text)
            known_text.append(snap.text.lower())
        elif role == "assistant":
            snap.kind, snap.text = "assistant", _plain(str(e.get("content", "")))
        elif typ == "tool_call":
            snap.kind, snap.tool, snap.params = (
                "tool_call",
                str(e.get("tool_name")),
                as_dict(e.get("parameters")),
            )
        elif typ == "tool_response":
            snap.kind, snap.tool = "tool_response", str(e.get("tool_name"))
            snap.response = as_dict(e.get("tool_response"))
            known |= data_keys(snap.response) | money_keys(snap.response)
            known_text.append(_flat_text(snap.response))
        else:
            continue
        steps.append(snap)
    return Conversation(
        steps=steps,
        tool_kinds=tool_kinds(ctx.agent_tools),
        enums=enum_params(ctx.agent_tools),
        policy_keys=policy_keys,
        policy_text=policy_text,
        has_policy=bool(ctx.agent_instructions.strip()),
    )


def _plain(text: str) -> str:
    """Spoken text without interruption tags, with typographic apostrophes made plain (EVA's
    transcripts write "I’ve"; the rules' phrase patterns write "I've")."""
    return strip_tags(text).replace("\u2019", "'").replace("\u2018", "'")


def _flat_text(obj: Any) -> str:
    if isinstance(obj, dict):
        return " ".join(f"{k} {_flat_text(v)}" for k, v in obj.items()).lower()
    if isinstance(obj, list):
        return " ".join(_flat_text(v) for v in obj)
    return str(obj).lower()


_NOT_FOUND = re.compile(
    r"not[_ ]?found|no match|does not exist|doesn't exist|mismatch|no record|no \w+ (was )?found",
    re.I,
)


def lookup_missed(resp: dict[str, Any]) -> bool:
    """A failed lookup that says the identifier / name matched nothing."""
    return response_failed(resp) and bool(
        _NOT_FOUND.search(
            " ".join(str(resp.get(k, "")) for k in ("error_type", "error_code", "error", "message"))
        )
    )


def response_failed(resp: dict[str, Any]) -> bool:
    """A tool result that reports a failure: EVA's executor says it by ``status`` /
    ``error_type``; the judge-validation records also carry ``{"is_error": true, "error": ...}``."""
    st = str(resp.get("status", "")).lower()
    return (
        st in ("error", "failed", "failure", "not_found")
        or bool(resp.get("error_type"))
        or resp.get("is_error") is True
    )


_CHARGE_KEYS = re.compile(
    r"(collected|charged|charge_amount|change_fee|cancellation_fee|penalty|amount_due)$"
)


def charges(resp: dict[str, Any]) -> list[tuple[str, float]]:
    """Positive amounts a write result says the caller pays (fees, collected totals)."""
    out: list[tuple[str, float]] = []

    def walk(o: Any) -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                if (
                    isinstance(v, int | float)
                    and not isinstance(v, bool)
                    and v > 0
                    and _CHARGE_KEYS.search(k)
                ):
                    out.append((k, float(v)))
                else:
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(resp)
    if resp.get("fee_waived") is True:
        out = [(k, v) for k, v in out if "fee" not in k]
    return out
