"""The agent's faults injected into a reference conversation (:mod:`.faults` says how every
injection is made): a completion without its write, a wrong write, a refusal, a question
looped, a restart, a long silence, a transfer nobody asked for. The wordings are the tables
below."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from voxbench.eval.gateset._steps import (
    Injected,
    Injector,
    Party,
    agent_questions,
    before_first_write,
    edit_step,
    fabricate,
    writes,
)
from voxbench.eval.gateset.conversation import Line, RefConversation, Step, Tool
from voxbench.eval.offline._caller_end import MIN_QUESTION, closing_question, same_question

REFUSALS = (
    "I'm sorry, but I'm not able to help with that request.",
    "Unfortunately, I can't make that change for you.",
    "I'm afraid that isn't something I can do over the phone.",
)
GIVE_UPS = ("Okay. Thanks anyway, goodbye.", "Alright, I'll leave it then. Bye.", "That's a shame. Goodbye.")
LOOP_GIVE_UPS = ("This isn't getting anywhere. Goodbye.", "I've told you several times now. Bye.")
CHECK_INS = ("Hello? Are you still there?", "Hi, can you hear me?", "Hello? Is anyone there?")
SILENT_GOODBYES = ("I'll try again later. Goodbye.", "Okay, I'm hanging up. Bye.")
TRANSFERS = (
    "Let me transfer you to a live agent who can help with that.",
    "I'm going to connect you with one of our specialists now.",
)
OPENINGS = (
    "Hello! How can I help you today?",
    "Thank you for calling. How may I help you?",
    "Hi there, what can I do for you today?",
)
RESTART_LEADS = ("", "Hello! I'm here. ", "Sorry about that. ")
"""Before the opening line said again: a live agent restarting said "Hello! I'm here." first."""
TRANSFER_REPLIES = ("No, I didn't ask for a transfer. Goodbye.", "I don't want to be transferred. Bye.")


def completion_without_write(conv: RefConversation, rng: random.Random) -> Injected | None:
    """Every write call dropped; the agent still says what it did."""
    w = set(writes(conv))
    if not w:
        return None
    steps = [s for i, s in enumerate(conv.steps) if i not in w]
    return Injected(conv.copy(steps), min(w), f"dropped {len(w)} write call(s)")


def _altered(v: Any, rng: random.Random) -> Any:
    if isinstance(v, bool):
        return not v
    if isinstance(v, int | float):
        return v + rng.choice([1, 2, 7])
    if isinstance(v, str) and v:
        return fabricate(v, rng) if any(c.isalnum() for c in v) else v + "x"
    return None


def wrong_write(conv: RefConversation, rng: random.Random) -> Injected | None:
    """One argument of one write call changed; the agent's lines unchanged."""
    for i in rng.sample(writes(conv), len(writes(conv))):
        tool = conv.steps[i]
        assert isinstance(tool, Tool)
        keys = [k for k, v in tool.params.items() if _altered(v, rng) is not None]
        if keys:
            k = rng.choice(keys)
            params = {**tool.params, k: _altered(tool.params[k], rng)}
            return edit_step(conv, i, replace(tool, params=params), f"{tool.name}.{k} changed")
    return None


def refusal(conv: RefConversation, rng: random.Random) -> Injected | None:
    cands = [i for i in conv.lines("agent") if conv.lines("user")[0] < i < before_first_write(conv)]
    if not cands:
        return None
    i = rng.choice(cands)
    steps = [*conv.steps[:i], Line("agent", rng.choice(REFUSALS)), Line("user", rng.choice(GIVE_UPS))]
    return Injected(conv.copy(steps, "end_call"), i, "agent refused")


def loop(conv: RefConversation, rng: random.Random) -> Injected | None:
    """An agent question asked three more times, the caller answering each time, then leaving."""
    qs = [i for i in agent_questions(conv, before_first_write(conv)) if i + 1 < len(conv.steps)]
    qs = [i for i in qs if isinstance(conv.steps[i + 1], Line) and conv.line(i + 1).who == "user"]
    if not qs:
        return None
    i = rng.choice(qs)
    ask, answer = conv.steps[i], conv.steps[i + 1]
    steps = [*conv.steps[: i + 2], ask, answer, ask, answer, ask, Line("user", rng.choice(LOOP_GIVE_UPS))]
    return Injected(conv.copy(steps, "end_call"), i, "agent repeated its question")


def restart(conv: RefConversation, rng: random.Random) -> Injected | None:
    """After the caller answered one of its questions, the agent starts the call over with its
    opening line and the caller leaves: a reset, not a caller hanging up on an agent that was
    progressing. The rule reads the agent's own opening; a reference that opens with the caller
    (EVA's do: its agent greets off the trace) gets one of `OPENINGS` first, as a live agent's
    greeting. Needs a later question of another wording (the agent went on before it reset)."""
    steps = list(conv.steps)
    opening = [i for i in conv.lines("agent") if i < conv.lines("user")[0]]
    if not opening:
        steps.insert(0, Line("agent", rng.choice(OPENINGS)))
    ref = conv.copy(steps)
    first = ref.line([i for i in ref.lines("agent") if i < ref.lines("user")[0]][-1])
    q = closing_question(first.text)
    if len(q) < MIN_QUESTION:
        return None
    qs = [
        i for i in agent_questions(ref, before_first_write(ref))
        if i + 1 < len(ref.steps) and isinstance(ref.steps[i + 1], Line) and ref.line(i + 1).who == "user"
        and not same_question(q, ref.line(i).text)
    ]  # fmt: skip
    if not qs:
        return None
    i = rng.choice(qs)
    tail = [Line("agent", f"{rng.choice(RESTART_LEADS)}{first.text}"), Line("user", rng.choice(GIVE_UPS))]
    return Injected(ref.copy([*ref.steps[: i + 2], *tail], "end_call"), i + 2, "agent started the call over")


def long_silence(conv: RefConversation, rng: random.Random) -> Injected | None:
    """After a caller line the agent never answers; the caller checks in (or just waits) and leaves."""
    cands = [i for i in conv.lines("user") if i < before_first_write(conv)]
    i = rng.choice(cands)
    tail: list[Step] = []
    if rng.random() < 0.75:
        tail.append(Line("user", rng.choice(CHECK_INS), wait_s=rng.uniform(15, 30)))
    tail.append(Line("user", rng.choice(SILENT_GOODBYES), wait_s=rng.uniform(15, 30)))
    return Injected(conv.copy([*conv.steps[: i + 1], *tail], "end_call"), i, "agent went silent")


def unrequested_transfer(conv: RefConversation, rng: random.Random) -> Injected | None:
    cands = [i for i in conv.lines("agent") if conv.lines("user")[0] < i < before_first_write(conv)]
    if not cands:
        return None
    i = rng.choice(cands)
    steps: list[Step] = [*conv.steps[:i], Line("agent", rng.choice(TRANSFERS))]
    if any(t.name == "transfer_to_agent" for t in conv.dd.agent.tools):
        steps.append(
            Tool(
                "transfer_to_agent", {"transfer_reason": "agent_initiated", "issue_summary": "caller request"}
            )
        )
    if rng.random() < 0.5:
        return Injected(conv.copy(steps, "transfer"), i, "agent transferred the call")
    steps.append(Line("user", rng.choice(TRANSFER_REPLIES)))
    return Injected(conv.copy(steps, "end_call"), i, "agent transferred; caller hung up")


AGENT_FAULTS: dict[str, tuple[Party, Injector]] = {
    "completion_without_write": ("agent", completion_without_write),
    "wrong_write": ("agent", wrong_write),
    "refusal": ("agent", refusal),
    "loop": ("agent", loop),
    "restart": ("agent", restart),
    "long_silence": ("agent", long_silence),
    "unrequested_transfer": ("agent", unrequested_transfer),
}
