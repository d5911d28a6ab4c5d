"""The environment variables a run's keys live in, remembered before anything runs.

``records.secrets`` masks a key once the process has read it through ``read_secret``. Two
processes write about a call without having read its keys that way: the worker, whose
libraries may read a key themselves (an OpenAI client reads ``OPENAI_API_KEY``) and whose
uncaught traceback the interpreter prints to ``worker.log``, and the orchestrator, which
quotes that log's last exception in ``attempt.json``. Both remember, at start, the value of
every key variable the run could use (every provider's, the judge's, and those its agent
and caller configs name), and the worker masks its uncaught tracebacks.
"""

from __future__ import annotations

import sys
import traceback
from types import TracebackType
from typing import Any

from voxbench.pipelines.agent.profiles import AgentProfile
from voxbench.pipelines.services.cloud import PROVIDERS
from voxbench.records.secrets import mask, read_secret

JUDGE_KEYS = ("VOXBENCH_JUDGE_API_KEY", "OPENAI_API_KEY")


def key_variables(agent: Any, simulator: Any) -> list[str]:
    """Every variable a key of this agent and caller may come from."""
    names = {p.env for p in PROVIDERS.values() if p.env} | set(JUDGE_KEYS)
    if isinstance(agent, AgentProfile):
        names |= set(agent.env_keys())
    caller_key: str | None = getattr(getattr(simulator, "llm", None), "api_key_env", None)
    if caller_key:
        names.add(caller_key)
    return sorted(names)


def remember_keys(agent: Any, simulator: Any) -> None:
    for name in key_variables(agent, simulator):
        read_secret(name)


def _masked_excepthook(tp: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    sys.stderr.write(mask("".join(traceback.format_exception(tp, exc, tb))))


def mask_uncaught() -> None:
    """An uncaught exception is printed with the remembered keys masked."""
    sys.excepthook = _masked_excepthook
