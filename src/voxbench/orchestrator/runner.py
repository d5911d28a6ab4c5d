"""The attempt loop: run, validate, regenerate or retry, commit; resumable at any point.

Per conversation (EVA's loop, with infrastructure failures kept apart)::

    attempt n -> worker process -> outcome
      ran      -> validator -> valid: commit records/<conv>           (done)
                            -> invalid: keep as <conv>_failed_attempt_n, regenerate
      invalid  -> (the fn itself said so) same as above
      infra    -> crash / hang / socket drop: record the cause, keep the attempt, retry
    budgets: `validation.max_attempts` invalid attempts, `max_infra_retries` extra tries
    for infrastructure; when one runs out the last attempt is committed with its
    failing status, so the conversation is finished and never redone.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import shutil
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from voxbench.orchestrator.attempt import AttemptOutcome
from voxbench.orchestrator.backends import Backend, make_backend
from voxbench.orchestrator.classify import attempt_fault
from voxbench.orchestrator.config import RunConfig
from voxbench.orchestrator.jobs import ConversationSpec, expand, make_job
from voxbench.orchestrator.layout import ConversationState, RunLayout, mark_record
from voxbench.orchestrator.progress import NullProgress, ProgressSink, RunStats, ScoringProgress
from voxbench.orchestrator.provenance import build_manifest
from voxbench.orchestrator.secret_vars import remember_keys
from voxbench.orchestrator.stages import StageWatch
from voxbench.orchestrator.summary import build_summary, score_with_eval
from voxbench.orchestrator.validate import Validator, make_validator
from voxbench.records import atomic_write_json
from voxbench.scenarios import load_dataset


class RunLocked(RuntimeError):
    """Another orchestrator is working on this run folder."""


class DiskFull(OSError):
    """The run folder's disk filled up: the run stopped, every committed conversation kept."""


@dataclass
class RunResult:
    run_dir: Path
    summary: dict[str, Any]
    interrupted: bool


def default_run_id(config: RunConfig) -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d_%H-%M-%S") + f"_{config.resolved_conversation_fn()}"


@contextlib.contextmanager
def run_lock(path: Path) -> Iterator[None]:
    """An flock the kernel drops when we die, even by kill -9: no stale-lock cleanup needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(f"another orchestrator is running in {path.parent}") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        yield
    finally:
        os.close(fd)


class Orchestrator:
    """Runs every planned conversation of a run folder to a final status."""

    def __init__(
        self,
        config: RunConfig,
        *,
        backend: Backend | None = None,
        validator: Validator | None = None,
        progress: ProgressSink | None = None,
        scoring: ScoringProgress | None = None,
    ):
        self.config = config
        remember_keys(config.agent, config.simulator)  # masked in what this process writes
        self._backend = backend
        self._validator = validator
        self.progress = progress or NullProgress()
        self.scoring = scoring  # the scoring pass's progress lines (None: silent)
        self.stats = RunStats()
        self.timings: list[tuple[float, float | None]] = []  # (process_s, fn_s) per attempt
        self._stopping = False
        self._disk_full: str | None = None
        self._tasks: list[asyncio.Task[None]] = []

    def resolve_run_dir(self) -> tuple[str, Path]:
        run_id = self.config.run_id
        if self.config.out:
            out = Path(self.config.out)
            run_id = run_id or out.name
        else:
            run_id = run_id or default_run_id(self.config)
            out = Path("runs") / run_id
        return run_id, out

    # -- the run -------------------------------------------------------------------
    def run_sync(self) -> RunResult:
        return asyncio.run(self.run())

    async def run(self) -> RunResult:
        run_id, out = self.resolve_run_dir()
        self.run_id, self.layout = run_id, RunLayout(out)
        self.layout.ensure()
        with run_lock(self.layout.lock_path):
            return await self._run_locked()

    async def _run_locked(self) -> RunResult:
        cfg, layout = self.config, self.layout
        self.validator = self._validator or make_validator(
            cfg.validation, cfg.judges, layout.root / ".judge_cache"
        )
        dataset = load_dataset(cfg.dataset, cfg.domains or None)
        self.specs = expand(cfg, dataset)
        if not layout.run_json.is_file():
            atomic_write_json(layout.run_json, build_manifest(cfg, self.run_id, dataset, self.specs))
        layout.clean_staging()
        states = layout.scan()
        pending = [s for s in self.specs if not states.get(s.conversation_id, ConversationState()).done]
        self.stats = RunStats(planned=len(self.specs), already_done=len(self.specs) - len(pending))
        for s in self.specs:
            st = states.get(s.conversation_id)
            if st is not None:
                self._count_existing(st)
        self.backend = self._backend or make_backend(cfg)
        self._sem = asyncio.Semaphore(cfg.concurrency)
        self._write_state("running")
        self._install_signals()
        self.progress.start()
        self.progress.update(self.stats)
        self._stages = StageWatch(self.stats, self.progress)
        watch = asyncio.create_task(self._stages.run())
        t0 = time.monotonic()
        interrupted = False
        try:
            self._tasks = [
                asyncio.create_task(self._conversation(s, states.get(s.conversation_id))) for s in pending
            ]
            results = await asyncio.gather(*self._tasks, return_exceptions=True)
            errors = [
                r
                for r in results
                if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)
            ]
            if errors:
                raise errors[0]
            interrupted = self._stopping
        finally:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
            self._remove_signals()
            await self.backend.aclose()
            self.progress.stop()
        if self._disk_full is not None:
            raise DiskFull(
                errno.ENOSPC,
                f"disk full under {layout.root} ({self._disk_full}): the run stopped; every "
                "conversation already committed is kept, the ones in flight are redone when you "
                "free space and run again",
            )
        wall = time.monotonic() - t0
        if not interrupted:
            layout.clean_staging()
        summary = self._finish(wall, interrupted)
        return RunResult(layout.root, summary, interrupted)

    def _count_existing(self, st: ConversationState) -> None:
        s = self.stats
        s.regenerated += st.count("invalid")
        s.infra_retried += st.count("infra_failure")
        if st.final_status == "completed":
            s.completed += 1
        elif st.final_status == "invalid":
            s.validation_failed += 1
        elif st.final_status == "infra_failure":
            s.infra_failed += 1

    async def _conversation(self, spec: ConversationSpec, st: ConversationState | None) -> None:
        """Attempts until a final status; a full disk stops the whole run (every other write
        would fail the same way) and leaves this conversation to the resume."""
        try:
            await self._attempts(spec, st)
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
            self._disk_full = str(exc)
            self.stop()

    async def _attempts(self, spec: ConversationSpec, st: ConversationState | None) -> None:
        cfg, layout, cid = self.config, self.layout, spec.conversation_id
        st = st or ConversationState()
        attempt, invalid_n, infra_n = st.next_attempt, st.count("invalid"), st.count("infra_failure")
        while not self._stopping:
            stage = layout.new_stage(cid, attempt)
            job = make_job(cfg, self.run_id, spec, attempt, stage, port=0)
            async with self._sem:
                if self._stopping:
                    return
                self.stats.running += 1
                self._stages.begin(cid, stage)
                self.progress.update(self.stats)
                try:
                    outcome = await self.backend.run(job)
                finally:
                    self.stats.running -= 1
                    self._stages.end(cid)
            if outcome.kind == "cancelled" or self._stopping:
                shutil.rmtree(stage, ignore_errors=True)
                return
            self.timings.append((outcome.process_s, outcome.fn_s))
            if outcome.kind == "infra" and outcome.error_source == "disk_full":
                # every retry would fail alike and, out of budget, commit a lost conversation
                raise OSError(errno.ENOSPC, outcome.cause or "disk full", str(stage))
            status, cause, source, gate = await self._classify(outcome, stage)
            atomic_write_json(
                stage / "attempt.json",
                {
                    "outcome": outcome.model_dump(),
                    "status": status,
                    "cause": cause,
                    "validation": gate,
                    "fault": attempt_fault(status, cause, source, stage),
                },
            )
            if status == "completed":
                layout.commit(stage, cid)
                self._finished("completed")
                return
            mark_record(stage, _record_fields(job), status, cause, source)
            if status == "invalid":
                invalid_n += 1
                last = invalid_n >= cfg.validation.max_attempts
            else:
                infra_n += 1
                last = infra_n > cfg.max_infra_retries
            if last:
                layout.commit(stage, cid)
                self._finished(status)
                return
            layout.archive(stage, cid, attempt)
            if status == "invalid":
                self.stats.regenerated += 1
            else:
                self.stats.infra_retried += 1
            self.progress.update(self.stats)
            attempt += 1

    async def _classify(
        self, outcome: AttemptOutcome, stage: Path
    ) -> tuple[str, str | None, str | None, dict[str, Any]]:
        """(status, cause, error source, the validator's details: which validators failed the
        attempt and their evidence, kept in attempt.json for the summary and the report)."""
        if outcome.kind == "infra":
            return "infra_failure", outcome.cause, outcome.error_source or "worker", {}
        if outcome.kind == "invalid":
            return "invalid", outcome.cause, outcome.error_source or "simulation", {}
        try:
            res = await asyncio.to_thread(self.validator, stage)
        except Exception as exc:  # a broken validator must not pass a record silently
            return "invalid", f"validator {self.validator.name} raised: {exc!r}", "validation", {}
        details = dict(res.details or {})
        if res.valid:
            return "completed", None, None, details
        return "invalid", res.reason, "validation", details

    def _finished(self, status: str) -> None:
        s = self.stats
        if status == "completed":
            s.completed += 1
        elif status == "invalid":
            s.validation_failed += 1
        else:
            s.infra_failed += 1
        s.finished_this_session += 1
        self.progress.update(s)
        self._write_state("running")

    # -- shutdown, state and summary ------------------------------------------------
    def stop(self) -> None:
        """Ctrl-C: stop launching, kill running attempts, keep every finished one."""
        if self._stopping:
            return
        self._stopping = True
        self.backend.cancel_all()

    def _install_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop)

    def _remove_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)

    def _write_state(self, status: str) -> None:
        atomic_write_json(
            self.layout.state_json,
            {
                "run_id": self.run_id,
                "status": status,
                "pid": os.getpid(),
                "updated_at": datetime.now(UTC).isoformat(),
                **self.stats.as_dict(),
            },
        )

    def _finish(self, wall_s: float, interrupted: bool) -> dict[str, Any]:
        layout = self.layout
        summary: dict[str, Any] = {
            "run_id": self.run_id,
            "backend": self.backend.name,
            **build_summary(layout, self.specs),
        }
        summary["validator"] = self.validator.name
        summary["session"] = self._session_timing(wall_s)
        summary["interrupted"] = interrupted
        if self.config.score and not interrupted and summary["completed"]:
            metrics, note = score_with_eval(layout.root, self.config.judges, self.scoring)
            summary["scoring"] = note
            if metrics is not None:
                summary["metrics"] = metrics
        atomic_write_json(layout.summary_json, summary)
        self._write_state(
            "interrupted" if interrupted else ("finished" if summary["not_run"] == 0 else "incomplete")
        )
        return summary

    def _session_timing(self, wall_s: float) -> dict[str, Any]:
        n = self.stats.finished_this_session
        overheads = [p - f for p, f in self.timings if f is not None]
        return {
            "wall_s": round(wall_s, 3),
            "attempts": len(self.timings),
            "conversations_finished": n,
            "conversations_per_hour": round(n * 3600.0 / wall_s, 1) if wall_s > 0 else None,
            "process_overhead_s_mean": round(sum(overheads) / len(overheads), 4) if overheads else None,
            # what running attempts said they were doing, summed (live calls note their steps)
            "time_by_step_s": {k: round(v, 1) for k, v in self._stages.spent.items()},
        }


def _record_fields(job: Any) -> dict[str, Any]:
    return {
        "conversation_id": job.conversation_id,
        "domain": job.domain,
        "scenario_id": job.scenario_id,
        "trial": job.trial,
        "condition": job.condition,
        "attempt": job.attempt,
        "lang": job.lang,
        "seeds": job.spec.seeds.record(),
    }


def run_benchmark(config: RunConfig, **kwargs: Any) -> RunResult:
    """Synchronous entry point (CLI, tests, Ray driver)."""
    return Orchestrator(config, **kwargs).run_sync()
