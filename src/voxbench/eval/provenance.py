"""Where a run's scores come from, written into its summary: voxbench's version and commit, the
metric versions, the judges and their prompts' hashes, the offline judges' shipped fits, the
run's manifest. A summary read months later says what produced it."""

import json
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import voxbench
import voxbench.eval.metrics
from voxbench.eval.offline._shipped import offline_provenance
from voxbench.eval.types import REGISTRY, EvalConfig


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def provenance(run_dir: Path, config: EvalConfig, metrics: list[str]) -> dict[str, Any]:
    from voxbench.eval.judges import prompts as P
    from voxbench.eval.types import prompt_hash

    judges = {
        k: getattr(j, "model", None)
        for k, j in (("text", config.judge), ("audio", config.audio_judge))
        if j is not None
    }
    prompts = {
        n: prompt_hash(P.render(getattr(P, n)))
        for n in (
            "FAITHFULNESS",
            "CONCISENESS",
            "PROGRESSION",
            "SPEAKABILITY",
            "KEY_ENTITIES",
            "USER_BEHAVIOR",
        )
    }
    judge_details = {
        k: dict(prov)
        for k, j in (("text", config.judge), ("audio", config.audio_judge))
        if j is not None and isinstance(prov := getattr(j, "provenance", None), dict)
    }
    run_json = run_dir / "run.json"
    mode = config.text_judge_mode()
    return {
        "voxbench_version": getattr(voxbench, "__version__", None),
        "metrics_versions": {m: REGISTRY[m].version for m in metrics},
        "git_commit_sha": _git("rev-parse", "HEAD"),
        "git_dirty": bool(_git("status", "--porcelain")),
        "python_version": sys.version.split()[0],
        "platform": platform.platform(),
        "captured_at": datetime.now(UTC).isoformat(),
        "judges": judges,
        "judge_details": judge_details,
        "judge_prompts": prompts,
        "judge_mode": mode,
        "offline_judges": offline_provenance(m for m in metrics if REGISTRY[m].needs_judge)
        if mode == "offline"
        else {},
        "run_manifest": json.loads(run_json.read_text(encoding="utf-8")) if run_json.is_file() else None,
        "metrics_computed": metrics,
    }
