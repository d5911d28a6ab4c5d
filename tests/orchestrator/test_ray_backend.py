"""The same acceptance test on the Ray backend, against a local Ray head we start and stop.

The head runs in its own session; SIGTERM to ``ray start --block`` drains and stops the
processes it started, and only those.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.orchestrator.conftest import (
    check_done_when,
    cli,
    env,
    fault_config,
    final_mtimes,
    kill9_after,
    run_to_end,
    write_config,
)

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="ray is not installed (pip install 'voxbench[ray]')",
)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    ray_bin = Path(sys.executable).with_name("ray")
    temp = Path("/tmp") / f"vbray{os.getpid()}"  # ray's socket paths must stay short
    log = tmp_path_factory.mktemp("ray") / "head.log"
    with log.open("wb") as fh:
        head = subprocess.Popen(
            [
                str(ray_bin),
                "start",
                "--head",
                "--block",
                "--num-cpus",
                "4",
                "--port",
                str(port),
                "--include-dashboard",
                "false",
                "--disable-usage-stats",
                "--temp-dir",
                str(temp),
            ],
            stdout=fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env(),
        )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while "will now block" not in log.read_text(errors="replace"):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.skip(f"local ray head did not start: {log.read_text(errors='replace')[-800:]}")
            time.sleep(0.2)
        yield address
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def test_ray_faults_kill9_and_resume_count_right(tmp_path: Path, ray_address: str) -> None:
    out, count = tmp_path / "run", tmp_path / "calls.log"
    cfg = write_config(
        tmp_path / "run.yaml",
        fault_config(out, count, backend="ray", ray_address=ray_address, ray_num_cpus=0.5),
    )
    kill9_after(cli(cfg), out, n_final=3, timeout_s=180)
    before = final_mtimes(out)
    assert 3 <= len(before) < 9, "the kill must land mid-run"
    done = run_to_end(cli(cfg))
    assert done.returncode == 0, done.stdout + done.stderr
    summary = check_done_when(out, count, before)
    assert summary["backend"] == "ray"
