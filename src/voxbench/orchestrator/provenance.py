"""``run.json``: how a run was made, so a number can be traced to its inputs."""

from __future__ import annotations

import hashlib
import os
import platform
import socket
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import voxbench
from voxbench.orchestrator.config import RunConfig
from voxbench.orchestrator.jobs import ConversationSpec
from voxbench.records import RunManifest
from voxbench.scenarios import Dataset


def git_commit(where: Path | None = None) -> str | None:
    """The source checkout's commit (+ ``-dirty``), or None for an installed wheel."""
    where = where or Path(voxbench.__file__).resolve().parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return sha + ("-dirty" if dirty else "") if sha else None


def dataset_hash(dataset: Dataset, domains: list[str]) -> str:
    """SHA-256 over the scenario files, databases and agent specs of the domains used."""
    h = hashlib.sha256()
    root = dataset.root
    files: list[Path] = []
    for d in sorted(domains):
        files.append(root / "data" / f"{d}_dataset.json")
        files.extend(sorted((root / "data" / f"{d}_scenarios").glob("*.json")))
        files.append(root / "configs" / "agents" / f"{d}_agent.yaml")
    for f in files:
        if f.is_file():
            h.update(f.relative_to(root).as_posix().encode())
            h.update(b"\0")
            h.update(f.read_bytes())
    return h.hexdigest()


def machine() -> dict[str, Any]:
    return {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "cpu_count": os.cpu_count(),
    }


def build_manifest(
    config: RunConfig, run_id: str, dataset: Dataset, specs: list[ConversationSpec]
) -> RunManifest:
    domains = sorted({s.domain for s in specs})
    return RunManifest(
        run_id=run_id,
        created_at=datetime.now(UTC).isoformat(),
        voxbench_version=voxbench.__version__,
        git_commit=git_commit(),
        dataset={
            "path": str(dataset.root),
            "builtin": config.dataset is None,
            "domains": domains,
            "sha256": dataset_hash(dataset, domains),
            "conversations": len(specs),
        },
        config=config.model_dump(mode="json"),
        models={
            "agent": config.agent.model_dump(mode="json"),
            "simulator": config.simulator.model_dump(mode="json"),
            "judges": config.judges.model_dump(mode="json"),
            "conversation_fn": config.resolved_conversation_fn(),
        },
        machine=machine(),
        seeds={"run": config.seed, "conversations": {s.conversation_id: s.base_seed for s in specs}},
    )
