"""Token sizes of each domain's fixed agent prompt, counted by the local model's own tokenizer.

    PYTHONPATH=src .venv/bin/python benchmarks/context_sizes.py [--data /work/shared/eva-data]
        [--model qwen2.5-coder-1.5b] [--reference /work/shared/eva-data/tests/artifacts/records/1.1.2]

Starts the model's llama.cpp server (no completion is run: the chat template renders each
request and the tokenizer counts it, the same two steps a completion takes) and prints, per
domain: the system prompt (policy + phone style), the tool schemas as the chat template
renders them (``native``), the fixed prompt of the live default agent (``LOCAL_AGENT_LLM``:
compact tool list + JSON reply format, date note) with the time one count of it takes, and
how many tokens of conversation are left at a few window sizes after the reply's ``max_tokens``. With ``--reference`` (an EVA
record folder with ``agent_perf_stats.csv``), the conversation of its last request is counted
in both shapings too: what a whole reference call adds to the prompt. Not a test.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from voxbench.localmodels import LlamaPromptTokenCounter
from voxbench.pipelines.agent.cascade import agent_system_instruction, date_note
from voxbench.pipelines.services import LOCAL_AGENT_LLM
from voxbench.pipelines.services.llm import LocalLLMServer, LocalLLMSettings
from voxbench.pipelines.services.reply_policy import ReplyPolicy
from voxbench.pipelines.services.tool_prompt import prepare_tool_request
from voxbench.scenarios import load_dataset

WINDOWS = (8192, 16384, 32768)
NATIVE = ReplyPolicy(tool_call_mode="native", flatten_tool_history=True)


def shaped(messages: list[Any], tools: list[Any], policy: ReplyPolicy) -> dict[str, Any]:
    """The request as the agent's service sends it (see ToolCallAdapterLLMService)."""
    params: dict[str, Any] = {"messages": [dict(m) for m in messages], "tools": tools}
    prepare_tool_request(params, policy)
    return params


def domain_row(counter: LlamaPromptTokenCounter, spec: Any, date: str, live: ReplyPolicy) -> dict[str, Any]:
    system = {"role": "system", "content": agent_system_instruction(spec)}
    note = {"role": "system", "content": date_note(date)}
    tools = spec.openai_tools()
    policy_tokens = counter.count_sync({"messages": [system]})
    native = counter.count_sync(shaped([system, note], tools, NATIVE))
    t0 = time.perf_counter()
    fixed = counter.count_sync(shaped([system, note], tools, live))
    count_ms = (time.perf_counter() - t0) * 1000
    row = {
        "domain": spec.domain,
        "tools": len(tools),
        "policy_chars": len(system["content"]),
        "policy_tok": policy_tokens,
        "schemas_tok": counter.count_sync({"messages": [system], "tools": tools}) - policy_tokens,
        "native_fixed": native,
        "live_fixed": fixed,
        "count_ms": f"{count_ms:.0f}",
    }
    for w in WINDOWS:
        row[f"room@{w // 1024}k"] = w - (LOCAL_AGENT_LLM.max_tokens or 0) - fixed
    return row


def reference_rows(counter: LlamaPromptTokenCounter, folder: Path, spec: Any, live: ReplyPolicy) -> list[str]:
    csv.field_size_limit(1 << 30)
    with (folder / "agent_perf_stats.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    messages = json.loads(rows[-1]["prompt"])
    convo = [m for m in messages if m.get("role") != "system"]
    system = {"role": "system", "content": agent_system_instruction(spec)}
    tools = spec.openai_tools()
    lines = [
        f"reference {folder.name}: {len(rows)} requests, last has {len(convo)} conversation messages "
        f"(EVA's own count of that prompt: {rows[-1].get('prompt_tokens')} tokens with its tokenizer)"
    ]
    for name, policy in (("native+flattened", NATIVE), ("live json_schema", live)):
        whole = counter.count_sync(shaped([system, *convo], tools, policy))
        bare = counter.count_sync(shaped([system], tools, policy))
        lines.append(f"  conversation in the {name} request: {whole - bare} tokens (prompt {whole})")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/shared/eva-data")
    ap.add_argument("--model", default=LOCAL_AGENT_LLM.local_model)
    ap.add_argument("--reference", type=Path, default=None)
    args = ap.parse_args()
    dataset = load_dataset(args.data)
    live = LOCAL_AGENT_LLM.reply_policy(local=True)
    settings = LocalLLMSettings(model=args.model, n_ctx=2048, slot_dir=None)
    with LocalLLMServer(settings) as srv:
        counter = srv.token_counter()
        rows = []
        for dom in dataset.domains.values():
            date = next(iter(dom.scenarios.values())).current_date_time
            rows.append(domain_row(counter, dom.agent, date, live))
        cols = list(rows[0])
        print(f"model {args.model}; live policy {live.tool_call_mode}, say_then_tool={live.say_then_tool}")
        print(" | ".join(cols))
        for r in rows:
            print(" | ".join(str(r[c]) for c in cols))
        if args.reference is not None:
            spec = dataset.domains["airline"].agent
            print("\n".join(reference_rows(counter, args.reference, spec, live)))


if __name__ == "__main__":
    main()
