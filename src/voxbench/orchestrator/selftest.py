"""`voxbench selftest`: every reference conversation re-enacted live, checked, and timed.

Each scenario is one live call over the real loopback WebSocket: the trace caller speaks
the reference user lines, the reference agent (``pipelines/agent/reference.py``) answers
with the reference agent lines and tool calls when its turn detection ends the caller's
turn. The call is then checked from its record (``selftest_checks.py``): task completed,
every line and tool call in order, no barge-in or yield, answers where they should be,
healthy pacing. Calls run in ``concurrency`` worker processes (each its own GIL, like the
orchestrator's workers); wall time and CPU (user + system, all threads) are per call.

Voices: ``tone`` (model-free synthetic voices, energy VAD and a silence timeout: the
plumbing at almost no CPU, what CI runs) or ``piper`` (Piper joe for the agent, pitched
Piper for the caller, Silero VAD and smart-turn v3 as the offline default agent uses).
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from voxbench.orchestrator.selftest_checks import Bounds, CallCheck, check_call
from voxbench.pipelines.call.selftest import selftest_spec, selftest_time_limit_s
from voxbench.pipelines.call.spec import CallSpec, ConversationRef
from voxbench.records import atomic_write_json
from voxbench.scenarios.loader import DomainData, load_dataset
from voxbench.scenarios.reference_script import ReferenceScript, reference_script
from voxbench.transports.virtual_loop import run_maybe_virtual

Voices = Literal["tone", "piper"]


class SelftestConfig(BaseModel):
    data: str = Field(description="EVA-format dataset folder")
    domains: list[str] = Field(default_factory=list, description="empty = every domain")
    scenarios: list[str] = Field(default_factory=list, description="ids or domain/id; empty = all")
    concurrency: int = Field(1, ge=1, le=64)
    voices: Voices = "tone"
    out: str = "runs/selftest"
    lang: str = "en"
    time_limit_s: float | None = Field(
        None, gt=0, description="seconds per call; None: from each reference conversation's length"
    )
    bounds: Bounds = Field(default_factory=Bounds)
    virtual_clock: bool = Field(False, description="run each call on a virtual clock (tone voices only)")


class SelftestJob(BaseModel):
    data: str
    domain: str
    scenario_id: str
    out_dir: str
    voices: Voices
    lang: str
    time_limit_s: float | None
    bounds: Bounds
    virtual_clock: bool = False


def plan(cfg: SelftestConfig) -> list[SelftestJob]:
    ds = load_dataset(cfg.data, cfg.domains or None)
    jobs = []
    for dom, dd in ds.domains.items():
        for sid in dd.scenarios:
            if cfg.scenarios and sid not in cfg.scenarios and f"{dom}/{sid}" not in cfg.scenarios:
                continue
            out = str(Path(cfg.out) / "records" / f"{dom}-{sid}")
            jobs.append(
                SelftestJob(
                    data=cfg.data,
                    domain=dom,
                    scenario_id=sid,
                    out_dir=out,
                    voices=cfg.voices,
                    lang=cfg.lang,
                    time_limit_s=cfg.time_limit_s,
                    bounds=cfg.bounds,
                    virtual_clock=cfg.virtual_clock,
                )
            )
    if cfg.virtual_clock and cfg.voices != "tone":
        raise ValueError(
            "--virtual-clock needs --voices tone: Piper, Silero and smart-turn compute in real time"
        )
    if cfg.scenarios and not jobs:
        raise ValueError(f"no scenario {cfg.scenarios} in {cfg.data}")
    return jobs


def _cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@contextlib.contextmanager
def call_log(out_dir: Path) -> Iterator[None]:
    """The call's full debug log goes to ``out_dir/call.log`` (as ``voxbench call`` does), so
    what stderr shows stays the CLI's choice: 170 calls of pipecat debug lines on a terminal
    cost CPU in every worker and bury the table."""
    from loguru import logger

    out_dir.mkdir(parents=True, exist_ok=True)
    handler = logger.add(out_dir / "call.log", level="DEBUG", mode="w")
    try:
        yield
    finally:
        logger.remove(handler)


def selftest_call_spec(job: SelftestJob, script: ReferenceScript) -> CallSpec:
    """The job's CallSpec: its time limit from the reference conversation's length unless set."""
    conv = ConversationRef(
        conversation_id=f"{job.domain}-{job.scenario_id}-t0",
        dataset=job.data,
        domain=job.domain,
        scenario_id=job.scenario_id,
        lang=job.lang,
    )
    return selftest_spec(conv, job.voices, job.time_limit_s or selftest_time_limit_s(script, job.voices))


@functools.lru_cache(maxsize=8)
def _domain(data: str, domain: str) -> DomainData:
    """One domain of the dataset, loaded once per worker process.

    Why: a worker re-enacts many calls of the same domain, and loading it (scenarios, agent
    YAML) took ~0.4 s of CPU per call, a burst that starved the other workers' live calls of a
    core while they paced audio. Safe to share: each call reads its databases afresh
    (``initial_db`` from the file, ``expected_db`` a deep copy), nothing else is mutated."""
    return load_dataset(data, [domain]).domains[domain]


def run_job(job: SelftestJob) -> CallCheck:
    """One re-enacted call (in a worker process) through ``CallSession``, then its checks."""
    from voxbench.pipelines.call.session import CallSession
    from voxbench.pipelines.scenario_input import CallScenario

    dd = _domain(job.data, job.domain)
    call = CallScenario.from_domain(dd, job.scenario_id, job.lang)
    script = reference_script(call.scenario, call.resolver)
    session = CallSession(selftest_call_spec(job, script), Path(job.out_dir))
    wall0, cpu0 = time.monotonic(), _cpu_s()
    try:
        with call_log(Path(job.out_dir)):
            run_maybe_virtual(session.run(call=call), job.virtual_clock)
    except Exception as exc:  # a crash is a miss of this call, never of the whole run
        c = CallCheck(domain=job.domain, scenario_id=job.scenario_id)
        c.misses.append(f"crashed: {type(exc).__name__}: {exc}")
        return c
    wall, cpu = time.monotonic() - wall0, _cpu_s() - cpu0
    c = check_call(Path(job.out_dir), script, job.bounds, job.domain, job.scenario_id)
    c.wall_s, c.cpu_s = round(wall, 2), round(cpu, 2)
    return c


class SelftestResult(BaseModel):
    checks: list[CallCheck]
    wall_s: float
    concurrency: int
    voices: Voices
    load_avg: tuple[float, float, float]

    @property
    def misses(self) -> list[str]:
        return [f"{c.domain}/{c.scenario_id}: {m}" for c in self.checks for m in c.misses]


def run_selftest(
    cfg: SelftestConfig,
    on_done: Callable[[CallCheck], object] | None = None,
    on_plan: Callable[[int], object] | None = None,
) -> SelftestResult:
    """Every planned call; ``on_plan`` hears how many there are, ``on_done`` of each as it
    finishes (progress); the result keeps the plan's order."""
    jobs = plan(cfg)
    if on_plan is not None:
        on_plan(len(jobs))
    Path(cfg.out).mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    checks: list[CallCheck] = []
    if cfg.concurrency == 1:
        for j in jobs:
            checks.append(run_job(j))
            if on_done is not None:
                on_done(checks[-1])
    else:
        with ProcessPoolExecutor(max_workers=min(cfg.concurrency, len(jobs) or 1)) as pool:
            futs = [pool.submit(run_job, j) for j in jobs]
            for f in as_completed(futs):
                if on_done is not None:
                    on_done(f.result())
            checks = [f.result() for f in futs]
    la = os.getloadavg()
    result = SelftestResult(
        checks=checks,
        wall_s=round(time.monotonic() - t0, 1),
        concurrency=cfg.concurrency,
        voices=cfg.voices,
        load_avg=(round(la[0], 2), round(la[1], 2), round(la[2], 2)),
    )
    atomic_write_json(Path(cfg.out) / "selftest.json", result)  # every check, for later reading
    return result
