"""`voxbench call ...`: run one live conversation and print where its record is."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("call", help="run one live bot-to-bot call and record it")
    p.add_argument("--data", required=True, help="EVA-format dataset folder (holds data/ and configs/)")
    p.add_argument("--domain", required=True, help="airline, itsm or medical_hr")
    p.add_argument("--scenario", required=True, help="scenario id, e.g. 7.4.1")
    p.add_argument(
        "--agent",
        default="cascade-local",
        help="agent profile (see `voxbench agents list`; default cascade-local), or `reference`: the "
        "scenario's reference conversation spoken live (Piper voice)",
    )
    p.add_argument("--profiles", action="append", help="YAML file of extra agent profiles (repeatable)")
    p.add_argument(
        "--simulator",
        default="trace",
        choices=["trace", "llm"],
        help="trace: replay the reference caller lines; llm: an LLM caller (Qwen2.5-Coder-1.5B, JSON turns)",
    )
    p.add_argument("--out", required=True, help="record directory to write")
    p.add_argument("--telephony", action="store_true", help="mu-law 8 kHz Twilio media stream on the wire")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds (default 600)")
    p.add_argument("--lang", default="en")
    p.add_argument("--condition", default="clean", help="perturbation condition, e.g. noise, accent+noise")
    p.add_argument("--trial", type=int, default=0, help="trial index (the perturbation seed derives from it)")
    p.set_defaults(func=run_call_cmd)


def run_call_cmd(args: argparse.Namespace) -> int:
    # Input checks first, with modules that do not import pipecat: a typo fails with one
    # line, not after pipecat's banner.
    from voxbench.pipelines.agent_select import REFERENCE, local_llm_config, reference_agent, resolve_agent
    from voxbench.processors.perturbations import resolve_condition
    from voxbench.scenarios import check_task_completion, load_dataset

    # fails here, before any model loads; the reference agent needs the scenario, not a profile
    profile = None if args.agent == REFERENCE else resolve_agent(args.agent, args.profiles)
    ds = load_dataset(args.data, [args.domain])
    dd = ds.domains[args.domain]
    if args.scenario not in dd.scenarios:
        raise ValueError(f"no scenario {args.domain}/{args.scenario} in {args.data}")
    try:
        cond = resolve_condition(args.condition)
    except KeyError as exc:
        raise ValueError(str(exc).strip("'\"")) from None

    from voxbench.pipelines.agent_builder import build_agent_services
    from voxbench.pipelines.caller_side import CallPerturbation
    from voxbench.pipelines.config import CallConfig, LimitsConfig, SimulatorConfig
    from voxbench.pipelines.local_stack import local_simulator, start_llm_server, start_simulator_llm_server
    from voxbench.pipelines.runner import run_call
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.transports.config import WireConfig

    call = CallScenario.from_domain(dd, args.scenario, args.lang)
    cfg = CallConfig(
        lang=args.lang,
        wire=WireConfig(mode="telephony" if args.telephony else "pcm16"),
        simulator=SimulatorConfig(kind=args.simulator),
        limits=LimitsConfig(time_limit_s=args.time_limit),
    )
    pert = None if cond.is_clean else CallPerturbation(cond, cond.seed(args.scenario, args.trial))
    local_llm = local_llm_config(profile) if profile is not None else None
    # one embedded server per model: the local agent's, and the LLM caller's own (1.5B);
    # cloud agents with a trace caller need no local model at all
    server = start_llm_server(local_llm) if local_llm else None
    sim_server = start_simulator_llm_server() if args.simulator == "llm" else None

    async def main() -> Any:
        try:
            agent = (
                reference_agent(call)
                if profile is None
                else build_agent_services(profile, server=server, check=False)
            )
            sim = local_simulator(
                args.simulator,
                sim_server,
                voice_id=cond.voice_id,
                reply_format=cfg.simulator.llm.reply_format,
            )
            return await run_call(call, cfg, agent, sim, Path(args.out), trial=args.trial, perturbation=pert)
        finally:
            # stop the model servers before asyncio tears down: requests still in flight
            # (an abandoned turn) fail fast instead of generating on
            for srv in (server, sim_server):
                if srv is not None:
                    await srv.astop()

    record = asyncio.run(main())
    tc = check_task_completion(call.expected_db, json.loads((Path(args.out) / "final_db.json").read_text()))
    print(f"record: {args.out}")
    print(
        f"status={record.status} end={record.end_reason} duration={record.duration_s:.1f}s "
        f"tool_calls={record.num_tool_calls} task_completed={tc.success}"
    )
    if record.error:
        print(f"error ({record.error_source}): {record.error}")
    return 0 if record.status == "completed" else 1
