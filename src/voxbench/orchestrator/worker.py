"""Worker process: ``python -m voxbench.orchestrator.worker JOB.json`` runs one attempt.

One process per conversation, so each conversation's audio models get their own GIL
(pipecat's eval suite does the same) and a crash or hang takes down one attempt, not
the run. The worker exits when its parent dies, so a ``kill -9`` of the orchestrator
leaves no orphan writing into a folder the resumed run is about to redo.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import threading
import time
from pathlib import Path

from voxbench.orchestrator.jobs import ConversationFn, ConversationJob
from voxbench.orchestrator.secret_vars import mask_uncaught, remember_keys
from voxbench.records.stage import note_stage

#: Short names for the conversation functions voxbench ships.
BUILTIN_FNS = {
    "scripted": "voxbench.orchestrator.scripted:scripted_conversation",
    "live": "voxbench.orchestrator.live:live_conversation",
    "live_virtual": "voxbench.orchestrator.live:virtual_live_conversation",
}

WORKER_INFO = "worker.json"


def resolve_conversation_fn(name: str) -> ConversationFn:
    """``scripted``, ``live`` or ``package.module:function`` (imported only when used)."""
    target = BUILTIN_FNS.get(name, name)
    mod_name, sep, attr = target.partition(":")
    if not sep:
        raise ValueError(f"conversation fn {name!r}: expected scripted, live or module:function")
    fn: ConversationFn = getattr(importlib.import_module(mod_name), attr)
    return fn


def _watch_parent(interval_s: float = 0.25) -> None:
    """Exit hard when re-parented: the orchestrator that would read our result is gone."""
    parent = os.getppid()

    def loop() -> None:
        while True:
            time.sleep(interval_s)
            if os.getppid() != parent:
                os._exit(70)

    threading.Thread(target=loop, name="parent-watch", daemon=True).start()


def run_job_file(path: Path) -> Path:
    """Load the job, run its conversation fn, and note how long the fn itself took."""
    job = ConversationJob.model_validate_json(path.read_text(encoding="utf-8"))
    remember_keys(job.spec.agent, job.spec.simulator)
    if job.conversation_fn == "live":
        note_stage(job.output_dir, "importing the live stack (pipecat)")
    fn = resolve_conversation_fn(job.conversation_fn)
    t0 = time.monotonic()
    out = fn(job)
    info = {"pid": os.getpid(), "fn_s": time.monotonic() - t0}
    (Path(job.output_dir) / WORKER_INFO).write_text(json.dumps(info), encoding="utf-8")
    return Path(out)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m voxbench.orchestrator.worker JOB.json", file=sys.stderr)
        return 2
    _watch_parent()
    mask_uncaught()
    run_job_file(Path(args[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
