"""Adapter from a ``ConversationJob`` to the live pipelines runner (``voxbench.pipelines``).

Imported only inside the worker process, and it imports pipecat only when called, so
the orchestrator, its tests and the scripted function never load the live stack.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from voxbench.orchestrator.jobs import ConversationJob

#: Where the runner is looked for: ``(module, function)``; the function is called as
#: ``fn(job_dict) -> record dir`` or, if it takes keyword arguments, with the job fields.
RUNNER_CANDIDATES = (
    ("voxbench.pipelines.runner", "run_conversation_job"),
    ("voxbench.pipelines", "run_conversation_job"),
)


def _find_runner() -> Any:
    for mod_name, attr in RUNNER_CANDIDATES:
        try:
            mod = importlib.import_module(mod_name)
        except ImportError:
            continue
        fn = getattr(mod, attr, None)
        if fn is not None:
            return fn
    raise RuntimeError(
        "the live conversation runner (voxbench.pipelines) is not available; "
        "install voxbench[live] or use conversation_fn: scripted"
    )


def live_conversation(job: ConversationJob) -> Path:
    """Run one live bot-to-bot call for `job` and return its record directory."""
    runner = _find_runner()
    out = runner(job.model_dump(mode="json"))
    return Path(out) if out is not None else Path(job.output_dir)
