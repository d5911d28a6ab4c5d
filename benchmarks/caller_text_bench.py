"""Text-only check of the LLM caller: does a local model stay in character, answer, and hang up?

    .venv/bin/python benchmarks/caller_text_bench.py [--models 1.5b,0.5b] [--framings transcript,chat]
        [--data builtin|/work/shared/eva-data] [--domain airline] [--scenarios bb.1,bb.2] [--threads 2]

For each scenario the caller hears the agent's greeting and then the reference trace's agent
lines, one per turn (the agent does not react to the caller: a fixed script). The caller's
first line is the scenario's starting utterance, as in a live call. Each turn is requested
like the live simulator's (``simulator_prompt(call, "json")`` as the system prompt, the JSON
``response_format``, temperature 0, ``CallerTurnStream`` extracting the words, asking once
more when a reply echoes the agent (transcript framing only) and giving up instead of saying
a line a third time):

* ``transcript`` framing (the live default): one user message with the call so far from the
  caller's point of view, then the cue;
``--script unhelpful`` replaces the agent with what the 0.5B local agent said in a live call
(it never did the task): a good caller asks again, then gives up and hangs up.
``--script asks-unknown`` is the 1.5B agent of another live call asking for the flight number,
which the caller does not have: a good caller says so and offers what it knows.
``--script open-question`` (for bb.3) has the agent ask "What would you like to know about it?":
a good caller restates its question. ``--script hold-and-ask`` (for bb.2) puts a hold phrase and
a question for the code in one agent turn: a good caller gives the code.

* ``chat`` framing (for comparison): the call as alternating chat turns (agent = user,
  caller = assistant), as pipecat's context holds it.

Prints every caller line with its end_call flag, time to first words and total time, and
flags lines that sound like the agent (``agent-like``) or repeat the agent's or its own previous
line (``repeat``). ``--hold "One moment please."`` adds the live cascade agent's pre-tool line
before every answer that follows a tool call in the trace; like the live caller, the model is
not asked after a hold line (``is_hold_line``).
Not a test: numbers depend on the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from voxbench.pipelines.caller.prompt import caller_request_messages, is_hold_line, simulator_prompt
from voxbench.pipelines.caller.stream import CallerTurnStream, GiveUp
from voxbench.pipelines.caller.turn_json import caller_response_format
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services.llm import LocalLLMServer, LocalLLMSettings
from voxbench.scenarios import load_dataset

MODELS = {"0.5b": "qwen2.5-coder-0.5b", "1.5b": "qwen2.5-coder-1.5b"}
GREETING = "Hello! How can I help you today?"
AGENT_LIKE = re.compile(
    r"how (can|may) i (help|assist)|i can help|i('| a)m (happy|glad) to help|let me (check|look)|"
    r"is there anything else i can|as an ai|thank you for calling",
    re.IGNORECASE,
)
BUILTIN = Path(__file__).resolve().parents[1] / "src/voxbench/scenarios/data"
# What the 0.5B local agent said in a live bb.1 call: it explained its tool instead of using it,
# then thanked the caller, again and again. A caller should ask again, then give up politely.
UNHELPFUL = [
    "Sure! To add a checked bag to your flight, you can use the add_baggage_allowance function. "
    "Here's an example JSON object. This will add a checked bag to your flight with one bag.",
] + ["You're welcome! I'm glad I could help. If you have any other questions, feel free to ask."] * 5
# What the 1.5B local agent said in a live bb.1 call: it asked for something the caller does not
# know (the flight number). A caller should say so and offer what it knows, not echo the agent.
ASKS_UNKNOWN = [
    "Sure, I can help with that. How many bags do you want to add?",
    "Okay, I'll add one checked bag to your flight. What's the flight number?",
] + ["Okay, I'll check the status of your flight. What's the flight number?"] * 3
# bb.3 with an agent that asks an open question after the lookup: the caller should restate
# its question, not answer it for the agent (the 1.5B did, live: "Yes, it is on time...").
OPEN_QUESTION = [
    "Could you tell me the confirmation number and last name, please?",
    "I found a booking for T C 2 W 9 K, Raman. What would you like to know about it?",
    "Flight BB105 to Denver is on time, leaving at eleven forty-five from gate B7. Anything else?",
]
# bb.2 with the 1.5B agent of a live call: a hold phrase and a question in one turn; the caller
# parroted it back instead of giving its code.
HOLD_AND_ASK = [
    "Sure, I can help you with that. What is your last name?",
    "Okay, I'll look up your booking. Please hold on. Could you tell me the confirmation number, please?",
    "Got it, flight BB488 from Phoenix to Denver on May thirteenth. You'd like a window seat, right?",
    "You're all set with a window seat. Anything else?",
]
SCRIPTS = {
    "unhelpful": UNHELPFUL,
    "asks-unknown": ASKS_UNKNOWN,
    "open-question": OPEN_QUESTION,
    "hold-and-ask": HOLD_AND_ASK,
}


def agent_lines(call: CallScenario, hold: str | None = None) -> list[str]:
    """The reference agent lines; with ``hold``, that line is said before each tool call's answer."""
    gt = call.scenario.ground_truth.expected_trace
    out: list[str] = []
    tool = False
    for e in gt.trace if gt else []:
        if e.event_type == "tool_call":
            tool = True
        elif e.event_type == "agent_utterance" and e.utterance:
            if tool and hold:
                out.append(hold)
            out.append(str(call.resolver.resolve(e.utterance)))
            tool = False
    return out


def chat_messages(system: str, lines: list[tuple[str, str]]) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for who, text in lines:
        msgs.append({"role": "user" if who == "Agent" else "assistant", "content": text})
    return msgs


async def caller_turn(
    client: Any,
    model: str,
    messages: list[dict[str, Any]],
    said_before: list[str],
    agent: str = "",
    echo_messages: list[dict[str, Any]] | None = None,
) -> tuple[str, bool, float, float]:
    t0 = time.perf_counter()

    async def ask(msgs: list[dict[str, Any]]) -> Any:
        return await client.chat.completions.create(
            model=model,
            messages=msgs,
            temperature=0.0,
            max_tokens=160,
            stream=True,
            response_format=caller_response_format(),
            extra_body={"cache_prompt": True},
        )

    async def again() -> Any:
        assert echo_messages is not None
        return await ask(echo_messages)

    adapted = CallerTurnStream(
        await ask(messages),
        said_before=said_before,
        give_up=GiveUp(),
        agent_turn=agent,
        retry=again if echo_messages is not None else None,
    )
    first = 0.0
    said = ""
    end = False
    async for chunk in adapted:
        d = chunk.choices[0].delta if chunk.choices else None
        if d is not None and d.content:
            first = first or time.perf_counter() - t0
            said += d.content
        if d is not None and d.tool_calls:
            end = True
    return said.strip(), end, first, time.perf_counter() - t0


async def run_scenario(
    client: Any,
    model: str,
    call: CallScenario,
    framing: str,
    hold: str | None = None,
    script: str = "trace",
) -> dict[str, Any]:
    system = simulator_prompt(call, "json")
    opening = str(call.resolver.resolve(call.scenario.starting_utterance(call.lang)))
    lines: list[tuple[str, str]] = [("Agent", GREETING), ("You", opening)]
    print(f"  Agent: {GREETING}\n  You:   {opening}  [opening]")
    stats: dict[str, Any] = {
        "turns": 0,
        "agent_like": 0,
        "repeats": 0,
        "ended": False,
        "secs": [],
        "first": [],
    }
    for agent in agent_lines(call, hold) if script == "trace" else SCRIPTS[script]:
        lines.append(("Agent", agent))
        print(f"  Agent: {agent}")
        if is_hold_line(agent):  # the live caller waits silently, as here
            print("  You:   (waits: hold line)")
            continue
        echo: list[dict[str, Any]] | None = None
        if framing == "transcript":
            # the service sees pipecat's context: agent = user, caller = assistant
            msgs = caller_request_messages(chat_messages(system, lines))
            echo = caller_request_messages(chat_messages(system, lines), careful=True)
        else:
            msgs = chat_messages(system, lines)
        mine = [text for who, text in lines if who == "You"]
        said, end, first, secs = await caller_turn(client, model, msgs, mine, agent, echo)
        flags = []
        if AGENT_LIKE.search(said):
            flags.append("agent-like")
            stats["agent_like"] += 1
        if said == GiveUp().line:
            flags.append("gave-up")
        elif said and said in (lines[-1][1], lines[-2][1]):  # echoes the agent or itself
            flags.append("repeat")
            stats["repeats"] += 1
        stats["turns"] += 1
        stats["secs"].append(secs)
        stats["first"].append(first)
        print(f"  You:   {said}  [end_call={end} first={first:.1f}s total={secs:.1f}s {' '.join(flags)}]")
        lines.append(("You", said))
        if end:
            stats["ended"] = True
            break
    return stats


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="1.5b")
    ap.add_argument("--framings", default="transcript")
    ap.add_argument("--data", default="builtin")
    ap.add_argument("--domain", default="airline")
    ap.add_argument("--scenarios", default="bb.1,bb.2,bb.3")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument(
        "--script",
        default="trace",
        choices=["trace", *SCRIPTS],
        help="agent lines: the reference trace's, or scripted troubles: unhelpful / asks-unknown (bb.1), "
        "hold-and-ask (bb.2), open-question (bb.3)",
    )
    ap.add_argument(
        "--hold", default=None, help='agent line said before each tool answer, e.g. "One moment please."'
    )
    args = ap.parse_args()
    from openai import AsyncOpenAI

    data = BUILTIN if args.data == "builtin" else Path(args.data)
    dd = load_dataset(data, [args.domain]).domains[args.domain]
    rows = []
    for short in args.models.split(","):
        settings = LocalLLMSettings(model=MODELS[short], n_threads=args.threads)
        async with LocalLLMServer(settings) as srv:
            client = AsyncOpenAI(base_url=srv.base_url, api_key="sk-local")
            for framing in args.framings.split(","):
                for sid in args.scenarios.split(","):
                    print(f"\n== {short} {framing} {args.domain}/{sid}")
                    st = await run_scenario(
                        client, srv.model, CallScenario.from_domain(dd, sid), framing, args.hold, args.script
                    )
                    rows.append((short, framing, sid, st))
            await client.close()
    print("\nmodel framing   scenario turns agent-like repeats ended  mean s/turn  mean first-words s")
    for short, framing, sid, st in rows:
        mean = sum(st["secs"]) / max(1, len(st["secs"]))
        first = sum(st["first"]) / max(1, len(st["first"]))
        print(
            f"{short:5} {framing:10} {sid:8} {st['turns']:5} {st['agent_like']:10} {st['repeats']:7} "
            f"{st['ended']!s:6} {mean:11.2f} {first:18.2f}"
        )


if __name__ == "__main__":
    asyncio.run(main())
