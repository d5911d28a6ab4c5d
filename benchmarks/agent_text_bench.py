"""Text-only task completion of the offline agent LLM: no audio, same prompt and request shaping.

    .venv/bin/python benchmarks/agent_text_bench.py [--models 0.5b,1.5b] [--modes native,compact,json_schema]
        (a mode may carry options after '+': plan, ground, saytool, e.g. json_schema+ground+saytool)
        [--data builtin|/work/shared/eva-data] [--scenarios bb.1,bb.2] [--limit N] [--threads 2] [--json out.json]

For each scenario the reference trace's user lines are fed, one per turn, to the agent LLM on
the in-process llama.cpp server. The request is built like the live cascade agent's
(``agent_system_instruction`` + the agent's OpenAI tools, temperature 0, 256 max tokens,
``prepare_tool_request`` for the tool-call mode, the same ``ToolCallTextAdapterStream``); tool
calls run on a ``ToolExecutor`` over the scenario database and their results go back to the
model, at most ``--max-steps`` LLM calls per user turn (pipecat itself has no such cap). Task
completion is ``check_task_completion(expected_db, final_db)`` as in voxbench.eval.

The caller does not react to the agent (trace replay), exactly like ``voxbench run
--offline-default``, so an agent that asks in a different order than the reference may get an
answer to a question it has not asked yet. Not a test: numbers depend on the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from voxbench.pipelines.agent.cascade import agent_system_instruction
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.pipelines.config import AgentConfig
from voxbench.pipelines.services.grounding import GroundingGuard, request_text, tool_parameter_schemas
from voxbench.pipelines.services.llm import LocalLLMServer, LocalLLMSettings
from voxbench.pipelines.services.reply_policy import ReplyPolicy
from voxbench.pipelines.services.tool_prompt import prepare_tool_request
from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream
from voxbench.scenarios import ToolExecutor, check_task_completion, load_dataset

MODELS = {"0.5b": "qwen2.5-coder-0.5b", "1.5b": "qwen2.5-coder-1.5b"}
VERBOSE = False
GREETING = AgentConfig().greeting
_LEAK = re.compile(r"[{}`*#]|\b(get_reservation|add_baggage|assign_seat|json)\b")


async def run_turn_llm(
    client: Any,
    model: str,
    messages: list[dict[str, Any]],
    tools: list[Any],
    mode: str,
    plan: bool = False,
    ground: bool = False,
    say_then_tool: bool = False,
) -> Any:
    params: dict[str, Any] = {
        "model": model,
        "messages": [dict(m) for m in messages],
        "tools": tools,
        "temperature": 0.0,
        "max_tokens": 256,
        "stream": True,
        "extra_body": {"cache_prompt": True},
    }
    guard = (
        GroundingGuard(request_text(params["messages"]), tool_parameter_schemas(tools)) if ground else None
    )
    policy = ReplyPolicy(
        tool_call_mode=mode, flatten_tool_history=True, plan_replies=plan, say_then_tool=say_then_tool
    )
    names = prepare_tool_request(params, policy)
    stream = await client.chat.completions.create(**params)
    adapted = ToolCallTextAdapterStream(
        stream,
        names,
        unwrap_say=mode != "native",
        strip_markdown=True,
        guard=guard.ask_instead if guard is not None else None,
    )
    text = ""
    calls: list[dict[str, Any]] = []
    async for chunk in adapted:
        if not chunk.choices:
            continue
        d = chunk.choices[0].delta
        if d.content:
            text += d.content
        for tc in d.tool_calls or []:
            assert tc.function is not None
            calls.append({"id": tc.id, "name": tc.function.name, "arguments": tc.function.arguments})
    return text.strip(), calls


def collapse_spelled(line: str) -> str:
    """``Q X 7 T 4 M`` -> ``QX7T4M``, as whisper transcribes a code read letter by letter."""
    return re.sub(r"\b(?:[A-Z0-9] ){2,}[A-Z0-9]\b", lambda m: m.group(0).replace(" ", ""), line)


async def run_scenario(
    client: Any, model: str, dd: Any, sid: str, mode: str, max_steps: int, collapse: bool = True
) -> dict[str, Any]:
    sc = dd.scenarios[sid]
    spec = dd.agent
    resolver = dd.resolver(sc)
    lines = reference_user_lines(sc, resolver)
    if collapse:
        lines = [collapse_spelled(line) for line in lines]
    executor = ToolExecutor(dd.domain, dd.initial_db(sid), sc.current_date_time, spec)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": agent_system_instruction(spec, sc.current_date_time)}
    ]
    if GREETING:  # the live cascade agent greets first (AgentConfig.greeting)
        messages.append({"role": "assistant", "content": GREETING})
    tools = spec.openai_tools()
    transcript: list[str] = []
    tool_log: list[str] = []
    leaks = llm_calls = 0
    ended = False
    t0 = time.perf_counter()
    for line in lines:
        if ended:
            break
        messages.append({"role": "user", "content": line})
        transcript.append(f"U: {line}")
        for _ in range(max_steps):
            t1 = time.perf_counter()
            base, *flags = mode.split("+")
            text, calls = await run_turn_llm(
                client,
                model,
                messages,
                tools,
                base,
                plan="plan" in flags,
                ground="ground" in flags,
                say_then_tool="saytool" in flags,
            )
            llm_calls += 1
            if VERBOSE:
                print(f"    [{time.perf_counter() - t1:.1f}s] {text!r} {calls}", flush=True)
            if text:
                transcript.append(f"A: {text}")
                leaks += bool(_LEAK.search(text))
            if not calls:
                messages.append({"role": "assistant", "content": text})
                break
            messages.append(
                {
                    "role": "assistant",
                    "content": text or None,
                    "tool_calls": [
                        {
                            "id": c["id"],
                            "type": "function",
                            "function": {"name": c["name"], "arguments": c["arguments"]},
                        }
                        for c in calls
                    ],
                }
            )
            for c in calls:
                result = executor.execute(c["name"], c["arguments"])
                tool_log.append(f"{c['name']}({c['arguments']}) -> {result.get('status')}")
                transcript.append(f"T: {tool_log[-1]}")
                messages.append({"role": "tool", "tool_call_id": c["id"], "content": json.dumps(result)})
                if c["name"] == "transfer_to_agent" and result.get("status") != "error":
                    ended = True
            if ended:
                break
    tc = check_task_completion(dd.expected_db(sid), executor.db)
    return {
        "scenario": sid,
        "success": tc.success,
        "auth_success": tc.auth_success,
        "tool_calls": len(tool_log),
        "tools": tool_log,
        "llm_calls": llm_calls,
        "spoken_leaks": leaks,
        "secs": round(time.perf_counter() - t0, 1),
        "transcript": transcript,
    }


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    from openai import AsyncOpenAI

    ds = load_dataset(None if args.data == "builtin" else args.data, ["airline"])
    dd = ds.domains["airline"]
    sids = args.scenarios.split(",") if args.scenarios else list(dd.scenarios)
    if args.limit:
        sids = sids[: args.limit]
    rows: list[dict[str, Any]] = []
    for mkey in args.models.split(","):
        settings = LocalLLMSettings(model=MODELS[mkey], n_threads=args.threads, n_ctx=args.n_ctx)
        with LocalLLMServer(settings) as srv:
            client = AsyncOpenAI(base_url=srv.base_url, api_key="sk-local")
            for mode in args.modes.split(","):
                for sid in sids:
                    r = await run_scenario(client, srv.model, dd, sid, mode, args.max_steps, not args.spelled)
                    r.update(model=mkey, mode=mode)
                    rows.append(r)
                    print(
                        f"{mkey:5} {mode:12} {sid:8} success={int(r['success'])} auth={int(r['auth_success'])} "
                        f"tools={r['tool_calls']} llm={r['llm_calls']} leaks={r['spoken_leaks']} {r['secs']}s",
                        flush=True,
                    )
                    if args.verbose:
                        print("   " + "\n   ".join(r["transcript"]), flush=True)
            await client.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="0.5b,1.5b")
    ap.add_argument("--modes", default="native,compact,json_schema")
    ap.add_argument("--data", default="builtin")
    ap.add_argument("--scenarios", default="")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--n-ctx", type=int, default=8192)
    ap.add_argument("--max-steps", type=int, default=4)
    ap.add_argument("--json", default="")
    ap.add_argument(
        "--spelled",
        action="store_true",
        help="keep codes spelled out as in the trace ('Q X 7 T 4 M'); default collapses them like "
        "whisper tiny.en does in live runs ('QX7T4M')",
    )
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    rows = asyncio.run(main_async(args))
    print("\nmodel  mode          success  auth  tool calls  leaks  secs")
    keys = sorted(
        {(r["model"], r["mode"]) for r in rows}, key=lambda k: (k[0], args.modes.split(",").index(k[1]))
    )
    for m, mode in keys:
        rs = [r for r in rows if r["model"] == m and r["mode"] == mode]
        print(
            f"{m:6} {mode:12} {sum(r['success'] for r in rs)}/{len(rs):<6} {sum(r['auth_success'] for r in rs)}/{len(rs):<3} "
            f"{sum(r['tool_calls'] for r in rs):10}  {sum(r['spoken_leaks'] for r in rs):5}  {sum(r['secs'] for r in rs):.0f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
