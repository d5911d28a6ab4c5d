"""Where attempts execute: a local process pool, or Ray tasks on a cluster.

A backend only runs one attempt and returns its outcome; the attempt loop, validation,
archiving and resume live in the orchestrator, so both backends behave the same and
both write into the same run folder (a shared path, for Ray on several machines).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from voxbench.orchestrator.attempt import AttemptOutcome, free_port, run_attempt
from voxbench.orchestrator.config import RunConfig
from voxbench.orchestrator.jobs import ConversationJob


class Backend(Protocol):
    name: str

    async def run(self, job: ConversationJob) -> AttemptOutcome: ...

    def cancel_all(self) -> None: ...

    async def aclose(self) -> None: ...


class PortPool:
    """Loopback ports for agent servers: each in-flight conversation holds one.

    A port some other program holds is skipped (checked by binding) instead of failing
    a conversation later with "address in use".
    """

    def __init__(self, base: int, size: int):
        self._q: asyncio.Queue[int] = asyncio.Queue()
        for p in range(base, base + size):
            self._q.put_nowait(p)

    @staticmethod
    def _free(port: int) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
        return True

    async def acquire(self) -> int:
        for _ in range(self._q.qsize() + 1):
            port = await self._q.get()
            if self._free(port):
                return port
            self._q.put_nowait(port)  # busy now; try it again later
        return free_port()

    def release(self, port: int) -> None:
        self._q.put_nowait(port)


class LocalBackend:
    """One worker process per attempt, watched from a thread per concurrency slot."""

    name = "local"

    def __init__(self, config: RunConfig, clock: Callable[[], float] = time.monotonic):
        self.grace_s = config.hang_grace_s
        self.clock = clock  # the attempts' deadline clock (tests inject one)
        self.ports = PortPool(config.base_port, max(16, 2 * config.concurrency))
        self._pool = ThreadPoolExecutor(max_workers=config.concurrency, thread_name_prefix="attempt")
        self._cancel = threading.Event()

    async def run(self, job: ConversationJob) -> AttemptOutcome:
        port = await self.ports.acquire()
        try:
            job = job.model_copy(update={"port": port})
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._pool, run_attempt, job, self.grace_s, self._cancel, self.clock
            )
        finally:
            self.ports.release(port)

    def cancel_all(self) -> None:
        self._cancel.set()

    async def aclose(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _ray_attempt(job_json: str, grace_s: float) -> dict[str, Any]:
    """Ray task body: pick a free port on this node, then run the attempt like locally."""
    job = ConversationJob.model_validate_json(job_json)
    if job.port == 0:
        job = job.model_copy(update={"port": free_port()})
    return run_attempt(job, grace_s).model_dump()


class RayBackend:
    """Attempts as Ray tasks; records go to the run folder, which must be a shared path.

    Each task still runs the conversation in its own worker process (one GIL per
    conversation). ``ray_num_cpus`` is what a conversation reserves, so Ray's scheduler,
    not us, decides how many fit on each node.
    """

    name = "ray"

    def __init__(self, config: RunConfig):
        try:
            import ray
        except ImportError as exc:
            raise ValueError("the ray backend needs ray: pip install 'voxbench[ray]'") from exc
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            ray.init(
                address=config.ray_address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        self.grace_s = config.hang_grace_s
        self._task = ray.remote(num_cpus=config.ray_num_cpus, max_retries=0)(_ray_attempt)
        self._inflight: set[Any] = set()

    async def run(self, job: ConversationJob) -> AttemptOutcome:
        ref = self._task.remote(job.model_dump_json(), self.grace_s)
        self._inflight.add(ref)
        try:
            raw = await ref
        except self._ray.exceptions.TaskCancelledError:
            return AttemptOutcome(kind="cancelled", cause="run interrupted")
        except self._ray.exceptions.RayError as exc:
            # The Ray worker itself died (node lost, OOM kill): an infrastructure failure.
            return AttemptOutcome(kind="infra", cause=f"ray task failed: {exc}"[:500], error_source="ray")
        finally:
            self._inflight.discard(ref)
        return AttemptOutcome.model_validate(raw)

    def cancel_all(self) -> None:
        for ref in list(self._inflight):
            self._ray.cancel(ref, force=True)

    async def aclose(self) -> None:
        if self._started:
            self._ray.shutdown()


def make_backend(config: RunConfig) -> Backend:
    if config.backend == "ray":
        return RayBackend(config)
    return LocalBackend(config)
