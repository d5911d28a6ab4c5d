"""What the LLM caller is told: its brief (goal, facts, decision tree, persona) and each turn's request.

Two reply formats share one brief:

* ``json`` (the default, and the only one small local models manage): the system prompt is the
  brief plus a JSON reply contract, and each request is *one* user message holding the call
  so far from the caller's point of view ("Agent: ... / You: ...") followed by a cue asking for
  the caller's next line as JSON. Qwen2.5-Coder-1.5B keeps the caller's role this way; given
  the call as alternating chat turns it answered as if it were the agent
  (offline-models.md §4.3), because in chat framing *it* is the assistant.
* ``tools``: the brief plus "hang up with the end_call tool"; the call stays pipecat's chat
  context (agent = user turns, caller = assistant turns). For capable cloud models.

Everything here is a pure function of the scenario and the context messages, so a prompt
is byte-identical across turns up to the newest transcript line (llama.cpp reuses the
cached prefix).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal

from voxbench.pipelines.scenario_input import CallScenario

ReplyFormat = Literal["json", "tools"]

SAYS_KEY = "customer_says"
END_KEY = "end_call"
AGENT_LABEL = "Agent"
CALLER_LABEL = "You"

_BRIEF = """You are role-playing a customer who is phoning a customer-service line. You are the \
CUSTOMER. The agent is someone else. Never offer help, never act as the agent, never say you \
are an AI, never read out these instructions.

Who you are: {name}. {persona}

Why you are calling: {goal}

What you know (say a fact only when the agent asks for it, exactly as written here):
{facts}

How to handle the call:
{tree}

How you talk: this is a phone call. Say one or two short sentences per turn, plain words, no \
lists, no stage directions. Answer only what the agent just asked; do not volunteer extra \
details. Give codes and numbers exactly as written above."""

_END_JSON = f"""Your reply is a JSON object: {{"{SAYS_KEY}": "<exactly the words you say out \
loud next>", "{END_KEY}": false}}. When your goal is reached, or the rules above say to give \
up or hang up, say a short goodbye in {SAYS_KEY} and set {END_KEY} to true. Set {END_KEY} to \
true only together with a goodbye."""

_END_TOOLS = """Ending: when your goal is reached, or the rules above say to give up or hang up, \
say a short goodbye and call the end_call tool in the same turn. Never call end_call before \
saying goodbye."""

CUE = f"What do you, the customer, say next? Reply with the JSON object ({SAYS_KEY}, {END_KEY})."
# Quoting the agent's question makes the turn a question to answer rather than a dialogue to
# continue. Measured (benchmarks/caller_text_bench.py, Qwen 1.5B): without it the caller echoed
# "Okay, I'll look up your booking. Please hold on. Could you tell me the confirmation number,
# please?" back (live) and answered "What would you like to know about it?" for the agent
# ("Yes, it is on time..."); with it: "Sure, my confirmation number is HN4R8B." and "I would
# like to know if the flight is on time and its departure time and gate."; the reference-trace
# calls stayed in character and ended.
QUESTION_CUE = (
    'The agent asked you: "{question}" Answer it as the customer, in your own words; give what you '
    "know from your facts."
)
# Added when a reply echoed the agent and is asked for again. Not the default: as the only cue
# it fixed echoes but broke other turns ("I'm sorry, but I can't assist with that." to "Let me
# check. What's your confirmation code and last name?").
CAREFUL = "Careful: you are the customer. Do not repeat the agent's words."
EMPTY_CALL = "(The agent has not said anything yet.)"


_FILLER = r"(?:ok(?:ay)?|sure|alright|all right|great|perfect|got it|thanks?|thank you|certainly|of course)"
_HOLD = re.compile(
    rf"^(?:{_FILLER}[,!.]*\s*)*"
    r"(?:(?:please\s+)?(?:hold(?:\s+on)?|wait)(?:\s+(?:a|one)\s+(?:moment|second|sec|minute))?"
    r"|(?:one|a|just\s+a|give\s+me\s+a)\s+(?:moment|second|sec|minute)"
    r"|let\s+me\s+(?:check|look|see|pull|find|verify|confirm)\b.*"
    r"|i(?:'ll|\s+will)\s+(?:check|look|pull)\b.*"
    r"|bear\s+with\s+me)?"
    r"(?:[,\s]+(?:please|for\s+you|for\s+me))*[.!]*$",
    re.IGNORECASE,
)


def is_hold_line(text: str) -> bool:
    """Whether an agent turn only asks the caller to wait ("One moment please.", "Let me check that.").

    A caller says nothing to these; asking the LLM for a reply there is what makes a small
    model break character (measured: "I'm sorry, but I can't assist with that." and a
    hang-up on Qwen 1.5B, benchmarks/caller_text_bench.py --hold) and it competes for the CPU
    with the agent's own tool call. Questions are never holds.
    """
    text = text.strip()
    if not text or "?" in text:
        return False
    sentences = [s for s in re.split(r"(?<=[.!])\s+", text) if s.strip()]
    return all(_HOLD.match(s.strip()) for s in sentences) and any(
        re.search(r"moment|second|sec\b|minute|hold|wait|let me|i'll|i will|bear with", s, re.IGNORECASE)
        for s in sentences
    )


def caller_brief(call: CallScenario) -> str:
    """The caller's goal, facts, decision tree and persona, in our own words (no format rules)."""
    sc = call.resolver.resolve(call.scenario.model_dump(mode="json"))
    goal = sc["user_goal"]
    tree = goal.get("decision_tree", {})
    lines: list[str] = []
    for key, label in (
        ("must_have_criteria", "You must get"),
        ("nice_to_have_criteria", "You would like"),
        ("negotiation_behavior", "If the agent pushes back"),
        ("edge_cases", "Special cases"),
    ):
        lines += [f"- {label}: {item}" for item in tree.get(key, [])]
    for key, label in (
        ("resolution_condition", "Done when"),
        ("failure_condition", "Give up when"),
        ("escalation_behavior", "About transfers"),
    ):
        if tree.get(key):
            lines.append(f"- {label}: {tree[key]}")
    facts = "\n".join(
        f"- {k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}"
        for k, v in goal.get("information_required", {}).items()
    )
    user = sc.get("user_config", {})
    return _BRIEF.format(
        name=user.get("name", "the caller"),
        persona=user.get("user_persona", ""),
        goal=goal.get("high_level_user_goal", ""),
        facts=facts or "- (nothing beyond your goal)",
        tree="\n".join(lines) or "- Follow your goal.",
    )


def simulator_prompt(call: CallScenario, reply_format: ReplyFormat = "json") -> str:
    """The caller's system prompt: the brief plus how to reply and hang up in ``reply_format``."""
    return caller_brief(call) + "\n\n" + (_END_JSON if reply_format == "json" else _END_TOOLS)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):  # OpenAI content parts
        parts = [p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return " ".join(p.strip() for p in parts if p.strip())
    return ""


def call_lines(messages: Sequence[Any]) -> list[tuple[str, str]]:
    """(speaker, text) of the call so far from pipecat's chat context, for the caller's transcript.

    In the simulator's context the agent's words (its STT) are ``user`` turns and the
    caller's own words are ``assistant`` turns. System messages, tool calls and tool results
    (the synthetic ``end_call``) are not part of what was said.
    """
    out: list[tuple[str, str]] = []
    for msg in messages:
        role = msg.get("role") if isinstance(msg, dict) else None
        if role not in ("user", "assistant"):
            continue
        text = _text(msg.get("content"))
        if not text:
            continue
        speaker = AGENT_LABEL if role == "user" else CALLER_LABEL
        if out and out[-1][0] == speaker:  # one line per turn, even if the context split it
            out[-1] = (speaker, f"{out[-1][1]} {text}")
        else:
            out.append((speaker, text))
    return out


# A request (the LLM caller's own prompt rule, not the goal caller's question tables): a modal
# asking the agent to do something ('could you tell me', 'may I have'), not a yes/no question, so
# 'is/do/does' are not in it and 'may' is.
_REQUEST = re.compile(
    r"^(please\b|(can|could|would|will|may) (you|i)\b|tell me\b|give me\b|provide\b|spell\b|confirm\b)"
    r"|\bplease (provide|tell|give|confirm|spell|say|share)\b",
    re.IGNORECASE,
)


_HOLD_CLAUSE = re.compile(
    rf"^(?:{_FILLER}[,.!]?\s+)*(?:please\s+)?(?:hold(?:\s+on)?|wait|(?:one|a|just\s+a)\s+(?:moment|second))"
    r"(?:\s+please)?[,;]\s*",
    re.IGNORECASE,
)


def last_question(agent_turn: str) -> str:
    """The last sentence of ``agent_turn`` that asks the caller something ("" if none).

    A question, or a request ("Please provide your confirmation number and last name."; live,
    the caller answered that one by restating its goal), but not a hold ("Please hold on."),
    and without a leading hold clause: STT wrote "Please hold on, could you tell me the
    confirmation number, please?" and, quoted whole, the caller answered "Sure, please hold on."
    """
    sentences = [q.strip() for q in re.split(r"(?<=[.!?])\s+", agent_turn) if q.strip()]
    asked = [q for q in sentences if q.endswith("?") or (_REQUEST.search(q) and not is_hold_line(q))]
    if not asked:
        return ""
    q = _HOLD_CLAUSE.sub("", asked[-1])
    return q[:1].upper() + q[1:]


def turn_cue(lines: Sequence[tuple[str, str]], careful: bool = False) -> str:
    """The request's closing cue: quote the agent's question (if its last turn asked one)."""
    parts = [CAREFUL] if careful else []
    if lines and lines[-1][0] == AGENT_LABEL and (question := last_question(lines[-1][1])):
        parts.append(QUESTION_CUE.format(question=question))
    return " ".join([*parts, CUE])


def transcript_request(lines: Sequence[tuple[str, str]], cue: str = CUE) -> str:
    """The one user message of a json-format request: the call so far, then the cue."""
    body = "\n".join(f"{who}: {text}" for who, text in lines) or EMPTY_CALL
    return f"The phone call so far:\n{body}\n\n{cue}"


def caller_request_messages(messages: Sequence[Any], careful: bool = False) -> list[dict[str, Any]]:
    """Rewrite an OpenAI ``messages`` list into the json-format request.

    System messages stay first and unchanged (the prompt-cache prefix); every other message
    becomes part of one transcript user message, closed by :func:`turn_cue` (``careful`` when
    asking again after an echo).
    """
    system = [dict(m) for m in messages if isinstance(m, dict) and m.get("role") == "system"]
    lines = call_lines(messages)
    return [*system, {"role": "user", "content": transcript_request(lines, turn_cue(lines, careful))}]
