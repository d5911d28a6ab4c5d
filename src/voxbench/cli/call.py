"""`voxbench call ...`: run one live conversation and print where its record is."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from voxbench.pipelines.caller.registry import CALLERS, DEFAULT_CALLER, caller_kinds


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
        default=DEFAULT_CALLER,
        choices=caller_kinds(),
        help="; ".join(f"{e.kind}: {e.summary}" for e in CALLERS.values()) + f" (default {DEFAULT_CALLER})",
    )
    p.add_argument("--out", required=True, help="record directory to write")
    p.add_argument("--telephony", action="store_true", help="mu-law 8 kHz Twilio media stream on the wire")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds (default 600)")
    p.add_argument("--lang", default="en")
    p.add_argument("--condition", default="clean", help="perturbation condition, e.g. noise, accent+noise")
    p.add_argument("--trial", type=int, default=0, help="trial index (the perturbation seed derives from it)")
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show the full debug log on stderr (always in OUT/call.log)",
    )
    p.set_defaults(func=run_call_cmd)


def call_spec(args: argparse.Namespace) -> Any:
    """The CallSpec of `voxbench call`: resolved here, before any model loads (an unknown
    profile, a missing key, an unknown scenario or condition fails in one line)."""
    from voxbench.pipelines.agent.selection import REFERENCE, resolve_agent
    from voxbench.pipelines.call.spec import (
        CallSeeds,
        CallSpec,
        ConversationRef,
        ReferenceAgent,
        SimulatorSpec,
        live_call_config,
    )
    from voxbench.pipelines.config import CallConfig
    from voxbench.processors.perturbations import resolve_condition
    from voxbench.scenarios import load_dataset
    from voxbench.transports.config import WireConfig

    # the reference agent needs the scenario, not a profile
    agent = ReferenceAgent() if args.agent == REFERENCE else resolve_agent(args.agent, args.profiles)
    if args.scenario not in load_dataset(args.data, [args.domain]).domains[args.domain].scenarios:
        raise ValueError(f"no scenario {args.domain}/{args.scenario} in {args.data}")
    try:
        cond = resolve_condition(args.condition)
    except KeyError as exc:
        raise ValueError(str(exc).strip("'\"")) from None
    ref = ConversationRef(
        conversation_id=f"{args.domain}-{args.scenario}-t{args.trial}",
        dataset=args.data,
        domain=args.domain,
        scenario_id=args.scenario,
        lang=args.lang,
        trial=args.trial,
        condition=cond.name,
    )
    sim = SimulatorSpec(kind=args.simulator)
    base = CallConfig(wire=WireConfig(mode="telephony" if args.telephony else "pcm16"))
    return CallSpec(
        conversation=ref,
        agent=agent,
        simulator=sim,
        perturbation=cond,
        call=live_call_config(base, sim, args.lang, args.time_limit),
        seeds=CallSeeds.derive(0, ref, perturbed=not cond.is_clean),
    )


def run_call_cmd(args: argparse.Namespace) -> int:
    from voxbench.cli.call_progress import log_to_record, quiet_stderr, run_with_progress

    quiet_stderr(args.verbose)
    spec = call_spec(args)  # bad input fails here, in one line

    from voxbench.pipelines.call.session import CallSession
    from voxbench.scenarios import check_task_completion

    out = Path(args.out)
    print(
        f"preparing {spec.conversation.conversation_id}: loading the models; a local LLM reads its "
        "policy and tool schemas once before the call starts (seconds for a short policy, about two "
        "minutes for airline's on 2 cores)",
        flush=True,
    )
    session = CallSession(spec, out)
    from voxbench.transports.logical_loop import run_logical

    with log_to_record(out) as log:  # real time, stamped on the logical clock like orchestrated calls
        record = run_logical(run_with_progress(session.run(), out / "events.jsonl"))
    expected = session.scenario().expected_db
    tc = check_task_completion(expected, json.loads((out / "final_db.json").read_text()))
    print(f"record: {args.out}   (full log: {log})")
    print(
        f"status={record.status} end={record.end_reason} duration={record.duration_s:.1f}s "
        f"tool_calls={record.num_tool_calls} task_completed={tc.success}"
    )
    if record.error:
        print(f"error ({record.error_source}): {record.error}")
    return 0 if record.status == "completed" else 1
