"""Judge options shared by `voxbench eval` and `voxbench judges`: an OpenAI-compatible
endpoint (`--judge-base-url/--judge-model`), the embedded local LLM (`--judge local`, which
the CLI starts here: eval itself only speaks HTTP to it), the offline methods
(`--judge offline`, the default when no endpoint is configured) or none (`--judge none`)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

LOW_CONFIDENCE_NOTE = (
    "judge is a small embedded local model: ratings are LOW-CONFIDENCE (grammar-constrained, "
    "so parseable, but far weaker than the frontier judges EVA validated; see "
    "`voxbench judges calibrate` for measured agreement with human labels)"
)


def add_judge_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--judge",
        choices=["offline", "local", "none"],
        default=None,
        help="'offline' (default without --judge-base-url/--judge-model): rule-based and fitted "
        "offline methods, no model server; 'local': start the embedded llama.cpp model (Qwen2.5-Coder "
        "1.5B if installed, else 0.5B); 'none': leave judge metrics unscored",
    )
    p.add_argument(
        "--judge-local-model",
        default=os.environ.get("VOXBENCH_JUDGE_LOCAL_MODEL"),
        help="force a local model: qwen-1.5b | qwen-0.5b",
    )
    p.add_argument("--judge-threads", type=int, default=None, help="llama.cpp threads for --judge local")
    p.add_argument(
        "--judge-base-url", default=os.environ.get("VOXBENCH_JUDGE_BASE_URL"), help="OpenAI-compatible URL"
    )
    p.add_argument("--judge-model", default=os.environ.get("VOXBENCH_JUDGE_MODEL"), help="judge model name")
    p.add_argument(
        "--judge-json-schema",
        action="store_true",
        help="send response_format json_schema to the endpoint (always on for --judge local)",
    )


@contextmanager
def judge_from_args(
    args: argparse.Namespace, cache_dir: Path | None, *, required: bool = False
) -> Iterator[Any]:
    """Yield an OpenAIJudge (or None when none is configured and not `required`); a local
    server is started for the duration and stopped afterwards."""
    from voxbench.eval.judges.openai_http import OpenAIJudge

    if args.judge in ("offline", "none"):
        yield None
        return
    if args.judge == "local":
        from voxbench.localmodels import LlamaServer, default_judge_llm

        spec = default_judge_llm(args.judge_local_model)
        srv = LlamaServer(spec, n_threads=args.judge_threads)
        srv.start()
        try:
            prov = srv.provenance() | {"confidence": "low", "note": LOW_CONFIDENCE_NOTE}
            yield OpenAIJudge(
                base_url=srv.base_url,
                model=srv.model,
                cache_dir=cache_dir,
                json_schema=True,
                max_tokens=2048,
                timeout_s=1800.0,
                max_retries=1,
                provenance=prov,
            )
        finally:
            srv.stop()
        return
    if args.judge_base_url and args.judge_model:
        yield OpenAIJudge(
            base_url=args.judge_base_url,
            model=args.judge_model,
            cache_dir=cache_dir,
            json_schema=bool(args.judge_json_schema),
            provenance={
                "kind": "openai-compatible",
                "model": args.judge_model,
                "base_url": args.judge_base_url,
            },
        )
        return
    if required:
        raise ValueError(
            "no judge configured: pass --judge offline, --judge local or --judge-base-url URL --judge-model NAME"
        )
    yield None


def judge_mode(args: argparse.Namespace) -> Literal["auto", "offline", "none"]:
    """EvalConfig.judge_mode for these flags: `auto` rates with the LLM judge when one is
    configured and offline otherwise; `--judge offline` forces offline even with an endpoint."""
    if args.judge == "offline":
        return "offline"
    if args.judge == "none":
        return "none"
    return "auto"
