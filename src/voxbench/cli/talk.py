"""`voxbench talk`: call the agent yourself; the call is recorded and scored like a simulated one.

voxbench talk --scenario bb.1                      # page on http://127.0.0.1:8760/
voxbench talk --scenario 7.4.1 --data ../eva-data --domain airline
voxbench talk --scenario bb.1 --local-audio        # this machine's mic and speaker
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from pathlib import Path
from typing import Any

# Simulator-validation judges: they check a simulated caller against its script. A person
# is the reference, so a human call skips them (they stay available for re-scoring).
HUMAN_SKIPPED_METRICS = ("user_behavioral_fidelity", "user_speech_fidelity")
HEADLINE = (
    "task_completion",
    "conversation_valid_end",
    "tool_call_validity",
    "authentication_success",
    "turn_taking",
    "response_speed",
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "talk", help="call the agent yourself (browser page or local mic); recorded and scored"
    )
    p.add_argument("--agent", default="cascade-local", help="agent profile (see `voxbench agents list`)")
    p.add_argument("--profiles", action="append", help="YAML file of extra agent profiles (repeatable)")
    p.add_argument("--scenario", required=True, help="scenario id, e.g. bb.1 or 7.4.1")
    p.add_argument("--data", default=None, help="EVA-format dataset folder (default: built-in scenarios)")
    p.add_argument("--domain", default=None, help="domain (default: the one holding --scenario)")
    p.add_argument("--port", type=int, default=8760, help="page port on 127.0.0.1 (0: any free port)")
    p.add_argument("--local-audio", action="store_true", help="use this machine's mic/speaker (PyAudio)")
    p.add_argument("--input-device", type=int, default=None, help="PyAudio input device index")
    p.add_argument("--output-device", type=int, default=None, help="PyAudio output device index")
    p.add_argument("--out", default=None, help="record directory (default runs/talk/<domain>-<id>-<time>)")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds (default 600)")
    p.add_argument("--raw-mic", action="store_true", help="browser: no echo cancellation / AGC (headphones)")
    p.add_argument("--no-score", action="store_true", help="don't score the record after the rating")
    p.add_argument("--lang", default="en")
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show the full debug log on stderr (always in OUT/call.log)",
    )
    p.set_defaults(func=run_talk_cmd)


def score_talk_record(record_dir: Path) -> dict[str, Any]:
    """Score one human-call record with `voxbench.eval`; returns headline values for the page."""
    from voxbench.eval.runner import default_metrics, score_run
    from voxbench.eval.types import EvalConfig

    metrics = [m for m in default_metrics() if m not in HUMAN_SKIPPED_METRICS]
    scored, _ = score_run(record_dir, EvalConfig(), metrics)
    s = scored[0]
    out: dict[str, Any] = {"status": s.status}
    for name in HEADLINE:
        r = s.metrics.get(name)
        if r is not None:
            out[name] = r.value
    return out


def resolve_call(data: str | None, domain: str | None, scenario: str, lang: str) -> Any:
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.scenarios import load_dataset
    from voxbench.scenarios.loader import builtin_dataset_dir

    root = Path(data) if data else builtin_dataset_dir()
    ds = load_dataset(root, [domain] if domain else None)
    hits = [d for d, dd in ds.domains.items() if scenario in dd.scenarios]
    if domain is None and len(hits) > 1:
        raise ValueError(f"scenario {scenario} exists in several domains ({', '.join(hits)}): pass --domain")
    if not hits:
        raise ValueError(f"no scenario {scenario!r} in {root}" + (f" (domain {domain})" if domain else ""))
    return CallScenario.from_domain(ds.domains[hits[0]], scenario, lang)


def talk_config(time_limit: float, lang: str) -> Any:
    from voxbench.pipelines.config import CallConfig, LimitsConfig

    # a person pauses and thinks: be patient before calling it inactive. No post-call STT:
    # the person rates the call right after it, and nothing waits for a transcript
    return CallConfig(
        lang=lang,
        limits=LimitsConfig(time_limit_s=time_limit, inactivity_s=120.0, drain_s=8.0),
        post_call_transcribe_agent=False,
    )


def talk_spec(args: argparse.Namespace, call: Any) -> Any:
    """The CallSpec of `voxbench talk`: the agent resolved like `voxbench call`'s (a profile,
    profile files), a person as the caller, the call stamped with the time it was made."""
    from voxbench.pipelines.agent.selection import resolve_agent
    from voxbench.pipelines.call.spec import CallSeeds, CallSpec, ConversationRef, PersonSpec

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
    ref = ConversationRef(
        conversation_id=f"{call.domain}-{call.scenario.id}-human-{stamp}",
        dataset=args.data,
        domain=call.domain,
        scenario_id=call.scenario.id,
        lang=args.lang,
    )
    return CallSpec(
        conversation=ref,
        agent=resolve_agent(args.agent, args.profiles),
        simulator=PersonSpec(interface="local-audio" if args.local_audio else "browser-webrtc"),
        call=talk_config(args.time_limit, args.lang),
        seeds=CallSeeds.derive(0, ref, perturbed=False),
    )


def _check_webrtc() -> None:
    try:
        import aiortc  # noqa: F401
    except ImportError as exc:
        raise ValueError(
            f"the browser page needs aiortc ({exc}): pip install 'voxbench[talk]' (or use --local-audio)"
        ) from exc


def run_talk_cmd(args: argparse.Namespace) -> int:
    from voxbench.cli.call_progress import log_to_record, quiet_stderr, run_with_progress

    quiet_stderr(args.verbose)
    call = resolve_call(args.data, args.domain, args.scenario, args.lang)  # before any model loads
    spec = talk_spec(args, call)

    from voxbench.pipelines.call.session import CallSession
    from voxbench.pipelines.human.talk import TalkCall, scenario_card
    from voxbench.pipelines.human.talk_local import AudioDeviceError

    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out or f"runs/talk/{call.domain}-{call.scenario.id}-{stamp}")
    transport = None
    if args.local_audio:
        from voxbench.pipelines.human.talk_local import local_audio_transport

        try:  # fail before loading any model
            transport, devices = local_audio_transport(
                spec.call.wire.sample_rate, args.input_device, args.output_device
            )
        except AudioDeviceError as exc:
            print(f"voxbench talk: {exc}", file=sys.stderr)
            return 2
        print(f"microphone: {devices.input_name}   speaker: {devices.output_name}")
    else:
        _check_webrtc()

    print(f"loading the agent ({spec.profile.name})…", flush=True)
    card = scenario_card(call)

    def ready(url: str) -> None:
        print(f"\nopen {url} in a browser on this machine, then press 'Call the agent'\n", flush=True)

    async def rated(path: Path, _rec: Any) -> dict[str, Any]:
        return {} if args.no_score else await asyncio.to_thread(score_talk_record, path)

    async def main() -> Any:
        talk = TalkCall(CallSession(spec, out))  # the session owns the agent's LLM server
        if args.local_audio:
            from voxbench.pipelines.human.talk_local import run_local_talk

            return await run_local_talk(talk, card, transport)
        from voxbench.pipelines.human.talk_web import TalkPageOptions, serve_talk

        options = TalkPageOptions(port=args.port, raw_mic=args.raw_mic)
        return await serve_talk(talk, card, options, on_ready=ready, on_rated=rated)

    with log_to_record(out):
        record = asyncio.run(run_with_progress(main(), out / "events.jsonl"))
    if record is not None and args.local_audio and not args.no_score:
        print(f"scores: {score_talk_record(out)}")
    if record is None:
        _drop_empty(out)
        print("nobody called; no record written")
        return 1
    rating = record.human_rating
    print(f"record: {out}")
    print(
        f"status={record.status} end={record.end_reason} duration={record.duration_s or 0:.1f}s "
        f"tool_calls={record.num_tool_calls} rating={rating.model_dump() if rating else None}"
    )
    if record.error:
        print(f"error ({record.error_source}): {record.error}")
    return 0 if record.status == "completed" else 1


def _drop_empty(out: Path) -> None:
    """No call, no record directory: remove the folder if it holds only the call's log and
    the progress note of a session nobody called."""
    from voxbench.cli.call_progress import LOG_FILE
    from voxbench.records.stage import STAGE_FILE

    if not out.is_dir() or not {p.name for p in out.iterdir()} <= {LOG_FILE, STAGE_FILE}:
        return
    for p in out.iterdir():
        p.unlink()
    out.rmdir()
