"""Every server voxbench starts listens on loopback only, and a configured host that is not
loopback is refused by name before anything listens.

* A live run (the reference agent and the trace caller with tone voices, on the virtual
  clock) runs as ``voxbench run`` with ``bind_audit/sitecustomize.py`` on its PYTHONPATH:
  every process of the run (orchestrator and workers) writes each ``socket.bind`` it makes
  (Python's audit event, whatever library binds) to a log, and each must be loopback.
* The servers a run does not start are started here and the operating system is asked
  (psutil) which sockets this process now listens on: the report viewer, the external
  agent's tool bridge, the talk page, and (slow) the embedded llama.cpp server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import pytest
import yaml
from pydantic import ValidationError

from voxbench.orchestrator.config import RunConfig
from voxbench.transports.config import ExternalAgentConfig, WireConfig
from voxbench.transports.loopback import is_loopback

REPO = Path(__file__).resolve().parents[2]
AUDIT = Path(__file__).with_name("bind_audit")


def live_run_config(out: Path, **over: Any) -> dict[str, Any]:
    """One call of the toy scenario ty.1, live on the virtual clock with model-free voices."""
    from voxbench.pipelines.call.selftest import selftest_call_config
    from voxbench.scenarios.loader import toy_dataset_dir

    cfg: dict[str, Any] = {
        "out": str(out),
        "dataset": str(toy_dataset_dir()),
        "scenarios": ["ty.1"],
        "time_limit_s": 120,
        "hang_grace_s": 60,
        "validation": {"validator": "builtin"},
        "conversation_fn": "live_virtual",
        "call": selftest_call_config("tone", 120).model_dump(mode="json"),
        "agent": {"profile": "reference", "voice": "tone"},
        "simulator": {"kind": "trace", "voice": "tone"},
    }
    cfg.update(over)
    return cfg


def cli_env(**extra: str) -> dict[str, str]:
    """The test's environment without VOXBENCH_* settings, sources from this checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOXBENCH_") or k == "VOXBENCH_EVA_DATA"}
    env["PYTHONPATH"] = str(REPO / "src")
    env.update(extra)
    return env


def voxbench(*args: str, env: dict[str, str], timeout_s: float = 240) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "voxbench.cli.main", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout_s)


def test_a_live_run_binds_only_loopback(tmp_path: Path) -> None:
    log = tmp_path / "binds.jsonl"
    cfg = tmp_path / "run.yaml"
    cfg.write_text(yaml.safe_dump(live_run_config(tmp_path / "run", score=False)), encoding="utf-8")
    env = cli_env(VB_BIND_AUDIT_LOG=str(log))
    env["PYTHONPATH"] = os.pathsep.join([str(AUDIT), env["PYTHONPATH"]])
    cmd = [sys.executable, "-m", "voxbench.cli.main", "run", "--config", str(cfg), "--no-progress"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err[-3000:]
    summary = json.loads((tmp_path / "run" / "run_summary.json").read_text())
    assert summary["completed"] == 1, summary
    binds = [json.loads(line) for line in log.read_text().splitlines()]
    # the worker that ran the call bound its agent server's port (not only probes on port 0);
    # the orchestrator is the command's own process (process ids need not grow)
    workers = {b["pid"] for b in binds} - {proc.pid}
    assert any(b["port"] != 0 for b in binds if b["pid"] in workers), binds
    outside = [b for b in binds if not is_loopback(b["host"])]
    assert outside == [], outside


def listening() -> set[tuple[str, int]]:
    """(address, port) of every TCP socket this process listens on, as the OS reports them."""
    conns = psutil.Process().net_connections(kind="tcp")
    return {(c.laddr.ip, c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN}


@contextmanager
def new_listeners() -> Iterator[set[tuple[str, int]]]:
    """The listening sockets opened inside the block (filled in when it ends)."""
    before, found = listening(), set()
    yield found
    found.update(listening() - before)


def assert_loopback(found: set[tuple[str, int]], what: str) -> None:
    assert found, f"{what} opened no listening socket"
    assert all(is_loopback(ip) for ip, _ in found), (what, found)


async def started_on_loopback(server: Any, what: str) -> None:
    """Start a server with async ``start``/``stop``, check what it listens on, stop it."""
    with new_listeners() as found:
        await server.start()
    try:
        assert_loopback(found, what)
    finally:
        await server.stop()


def test_the_report_viewer_listens_on_loopback(tmp_path: Path) -> None:
    from voxbench.cli.view import serve

    (tmp_path / "index.html").write_text("<html></html>")
    with new_listeners() as found:
        httpd = serve(tmp_path, 0)
    try:
        assert_loopback(found, "voxbench view")
    finally:
        httpd.server_close()


async def test_the_tool_bridge_listens_on_loopback() -> None:
    from voxbench.pipelines.agent.tool_bridge import ToolBridge
    from voxbench.scenarios import ToolExecutor, load_dataset
    from voxbench.scenarios.loader import toy_dataset_dir

    dd = load_dataset(toy_dataset_dir(), ["toy"]).domains["toy"]
    sid = next(iter(dd.scenarios))
    ex = ToolExecutor("toy", dd.initial_db(sid, "en"), dd.scenarios[sid].current_date_time, dd.agent)
    ext = ExternalAgentConfig()  # the bridge as an external agent's call builds it
    bridge = ToolBridge(ex, dd.agent, ext.tool_bridge_host, ext.tool_bridge_port)
    await started_on_loopback(bridge, "the tool bridge")


async def test_the_talk_page_listens_on_loopback(tmp_path: Path) -> None:
    pytest.importorskip("aiortc", reason="the talk extra is not installed")
    from tests.pipelines.talk.test_talk_browser import fake_agent, talk_call
    from voxbench.pipelines.human.talk import scenario_card
    from voxbench.pipelines.human.talk_web import TalkPageOptions, TalkWebServer

    talk = talk_call(tmp_path / "rec", fake_agent())
    opts = TalkPageOptions()  # the page as `voxbench talk` serves it
    server = TalkWebServer(talk, scenario_card(talk.call), host=opts.host, port=opts.port)
    await started_on_loopback(server, "the talk page")


@pytest.mark.slow
@pytest.mark.ci_slow
def test_the_embedded_llama_server_listens_on_loopback() -> None:
    """llama.cpp binds in C++ (no Python audit event): asked of the OS while it serves."""
    pytest.importorskip("xllamacpp")
    from voxbench.localmodels import QWEN_05B, LlamaServer

    before = listening()
    with LlamaServer(QWEN_05B, n_ctx=2048):
        found = listening() - before
    assert_loopback(found, "the llama.cpp server")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_a_loopback_host_is_accepted(host: str) -> None:
    from voxbench.pipelines.human.talk_web import TalkPageOptions

    assert WireConfig(host=host).host == host
    assert ExternalAgentConfig(tool_bridge_host=host).tool_bridge_host == host
    assert TalkPageOptions(host=host).host == host


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.2", "10.0.0.5", "example.com", ""])
def test_a_non_loopback_host_is_refused_with_its_field_named(host: str) -> None:
    from voxbench.pipelines.human.talk_web import TalkPageOptions

    with pytest.raises(ValidationError, match=r"wire\.host .* is not a loopback address"):
        WireConfig(host=host)
    with pytest.raises(ValidationError, match=r"call\.wire\.host[\s\S]*not a loopback address"):
        RunConfig.model_validate({"call": {"wire": {"host": host}}})
    with pytest.raises(ValidationError, match=r"tool_bridge_allow_remote: true"):
        ExternalAgentConfig(tool_bridge_host=host)
    with pytest.raises(ValidationError, match="talk page host"):
        TalkPageOptions(host=host)


def test_the_tool_bridge_listens_elsewhere_only_when_allowed_by_name() -> None:
    ext = ExternalAgentConfig(tool_bridge_host="0.0.0.0", tool_bridge_allow_remote=True)
    assert ext.tool_bridge_host == "0.0.0.0"
