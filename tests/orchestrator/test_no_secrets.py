"""No secret from the environment is written down: every API key variable the code knows of
holds a sentinel value, and no file of a run folder or its report (run.json, job.json,
record.json, events, worker logs, attempt files, metrics, the HTML) nor the CLI's output
contains one. A config that names a key variable keeps the name, never the value.

The run is ``voxbench run`` (the reference agent and the trace caller, tone voices, virtual
clock: no network, no model) followed by ``voxbench report``. The external agent, the one
path that sends a secret out (a header from ``headers_env``, a token in the URL from
``url_env``), is called in-process on the virtual clock, as tests/pipelines/agents/
test_external.py does, with the log captured the way a worker's log is."""

from __future__ import annotations

import http.server
import json
import os
import secrets
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from loguru import logger
from pipecat.processors.aggregators.llm_context import LLMContext

from tests.orchestrator.test_boundary_loopback import REPO, cli_env, live_run_config, voxbench
from voxbench.pipelines.agent.profiles import BUILTIN_PROFILES
from voxbench.pipelines.services.cloud import PROVIDERS

CALLER_KEY = "VB_SENTINEL_CALLER_LLM_KEY"  # named by the run config's caller LLM
AUTH_KEY = "VB_SENTINEL_AGENT_AUTH"  # an external agent's header, from headers_env
URL_KEY = "VB_SENTINEL_AGENT_URL"  # an external agent's URL with a token, from url_env
TOKEN = "VB_SENTINEL_TOKEN"  # the token in that URL


def key_names() -> list[str]:
    """Every API key variable the providers and built-in profiles read, the judge's, and ours."""
    names = {p.env for p in PROVIDERS.values() if p.env}
    names |= {k for prof in BUILTIN_PROFILES.values() for k in prof.env_keys()}
    return sorted(names | {"VOXBENCH_JUDGE_API_KEY", CALLER_KEY})


def sentinels(names: list[str]) -> dict[str, str]:
    return {n: f"vbsecret-{n.lower().replace('_', '-')}-{secrets.token_hex(8)}" for n in names}


def leaks(roots: list[Path], values: dict[str, str], texts: dict[str, str] | None = None) -> list[str]:
    """``file: VARIABLE`` for each file under ``roots`` (and each named text) holding a value."""
    found = []
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            data = path.read_bytes()
            found += [f"{path}: {n}" for n, v in values.items() if v.encode() in data]
    for where, text in (texts or {}).items():
        found += [f"{where}: {n}" for n, v in values.items() if v in text]
    return found


class EchoingEndpoint(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint refusing every request with a body that repeats the key
    it was sent, the way some providers' 401 answers do."""

    seen: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        auth = self.headers.get("Authorization") or ""
        self.seen.append(auth)
        body = json.dumps(
            {"error": {"message": f"Incorrect API key provided: {auth.removeprefix('Bearer ')}"}}
        )
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def echoing_endpoint() -> Iterator[tuple[str, list[str]]]:
    """(base URL, Authorization headers received) of an EchoingEndpoint on a free loopback port."""
    handler = type("Endpoint", (EchoingEndpoint,), {"seen": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", handler.seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_run_and_its_report_hold_no_key_from_the_environment(
    tmp_path: Path, echoing_endpoint: tuple[str, list[str]]
) -> None:
    values = sentinels(key_names())
    judge_url, judge_auth = echoing_endpoint
    caller_llm = {
        "kind": "openai-compatible",
        "base_url": "http://127.0.0.1:9/v1",
        "model": "caller-model",
        "api_key_env": CALLER_KEY,
    }
    run = tmp_path / "run"
    judges = {"base_url": judge_url, "model": "judge-model", "mode": "llm"}  # reads VOXBENCH_JUDGE_API_KEY
    cfg = live_run_config(run, simulator={"kind": "trace", "voice": "tone", "llm": caller_llm}, judges=judges)
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(cfg), encoding="utf-8")
    env = cli_env(**values)
    ran = voxbench("run", "--config", str(tmp_path / "run.yaml"), "--no-progress", env=env)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert json.loads((run / "run_summary.json").read_text())["completed"] == 1
    report = tmp_path / "report"
    rep = voxbench("report", str(run), "--out", str(report), env=env)
    assert rep.returncode == 0, rep.stderr[-3000:]
    assert (report / "index.html").is_file()

    files = {p.name for p in run.rglob("*") if p.is_file()}
    written = {
        "run.json",
        "job.json",
        "record.json",
        "events.jsonl",
        "worker.log",
        "attempt.json",
        "metrics.json",
    }
    assert written <= files, files
    # the judge's key was read and sent, and refused with itself in the answer
    assert judge_auth and set(judge_auth) == {f"Bearer {values['VOXBENCH_JUDGE_API_KEY']}"}
    outputs = {
        f"voxbench {c} {s}": getattr(p, s)
        for c, p in (("run", ran), ("report", rep))
        for s in ("stdout", "stderr")
    }
    assert leaks([run, report], values, outputs) == []
    # the variable's name is what the run keeps of it
    for name in ("run.json", "records/toy__ty.1__t0__clean/job.json"):
        assert f'"api_key_env": "{CALLER_KEY}"' in (run / name).read_text(), name


async def test_a_model_refusing_its_key_leaves_no_trace_of_it(
    tmp_path: Path, echoing_endpoint: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An LLM endpoint refuses the key and repeats it (the warm-up's warning quotes the
    provider; a failed call's error event and record do too): once read, the key is masked
    in the log and in every record file written, by whichever path the text takes."""
    from voxbench.pipelines.services import LLMConfig, make_llm
    from voxbench.pipelines.warmup import warm_up
    from voxbench.records import ConversationRecord, ErrorEvent, write_record
    from voxbench.records.io import EventWriter

    values = sentinels([CALLER_KEY])
    monkeypatch.setenv(CALLER_KEY, values[CALLER_KEY])
    url, auth = echoing_endpoint
    llm = make_llm(LLMConfig(kind="openai-compatible", base_url=url, model="m", api_key_env=CALLER_KEY))
    lines: list[str] = []
    sink = logger.add(lines.append, level="DEBUG", format="{message}")
    try:
        assert await warm_up(llm, LLMContext(messages=[{"role": "user", "content": "Hi."}])) is None
    finally:
        logger.remove(sink)
    assert auth == [f"Bearer {values[CALLER_KEY]}"]  # read, sent, refused
    said = next(line for line in lines if "warm-up skipped" in line)
    assert "Incorrect API key provided: ***" in said
    quoted = f"LLM failed: Incorrect API key provided: {values[CALLER_KEY]}"
    event = ErrorEvent(t=1.0, source="LLM#0", message=quoted, fatal=True)
    writer = EventWriter(tmp_path / "live" / "events.jsonl")
    writer.write(event)
    assert leaks([tmp_path], values) == []  # the line written as it happened
    writer.close()
    rec = ConversationRecord(
        conversation_id="c", domain="toy", scenario_id="ty.1", status="infra_failure", error=quoted
    )
    write_record(tmp_path / "rec", rec, events=[event])
    assert "Incorrect API key provided: ***" in (tmp_path / "rec" / "record.json").read_text()
    assert leaks([tmp_path], values, {"log": "\n".join(lines)}) == []


def crash_quoting_the_key(job: Any) -> Path:
    """A conversation fn (run in the worker) whose library read the key itself and dies
    quoting it, as a client that reads ``OPENAI_API_KEY`` on its own would."""
    raise RuntimeError(f"endpoint answered 401: Incorrect API key provided: {os.environ[CALLER_KEY]}")


def test_a_worker_dying_with_the_key_in_its_traceback_writes_it_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from voxbench.orchestrator import RunConfig, run_benchmark

    values = sentinels([CALLER_KEY])
    monkeypatch.setenv(CALLER_KEY, values[CALLER_KEY])
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(REPO), str(REPO / "src")])
    )  # the worker imports the fn
    caller_llm = {
        "kind": "openai-compatible",
        "base_url": "http://127.0.0.1:9/v1",
        "model": "m",
        "api_key_env": CALLER_KEY,
    }
    cfg = RunConfig.model_validate(
        {
            "out": str(tmp_path / "run"),
            "scenarios": ["bb.1"],
            "score": False,
            "max_infra_retries": 0,
            "validation": {"validator": "builtin"},
            "conversation_fn": f"{__name__}:crash_quoting_the_key",
            "simulator": {"llm": caller_llm},
        }
    )
    res = run_benchmark(cfg)
    assert res.summary["infra_failed"] == 1, res.summary
    rec = tmp_path / "run" / "records" / "airline__bb.1__t0__clean"
    assert "Incorrect API key provided: ***" in (rec / "worker.log").read_text()
    assert "Incorrect API key provided: ***" in (rec / "attempt.json").read_text()
    assert leaks([tmp_path / "run"], values) == []


async def _external_call(out: Path, url: str | None) -> tuple[Any, Any]:
    """One call of bb.1 to the external-ws profile reading its URL and header from the
    environment; to a bot started here (``url`` None), else to ``url``."""
    from tests.fakes.services import FakeTTS
    from tests.pipelines.agents.conftest import fast_config
    from tests.pipelines.agents.test_external import start_bot
    from voxbench.pipelines.agent.builder import build_agent_services
    from voxbench.pipelines.bundles import SimulatorServices
    from voxbench.pipelines.call.runner import run_call
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.scenarios import load_dataset

    call = CallScenario.from_domain(load_dataset(None, ["airline"]).domains["airline"], "bb.1")
    bot = await start_bot(call, "pcm16") if url is None else None
    try:
        url = url or f"ws://127.0.0.1:{bot.port if bot else 0}/ws?token={{token}}"
        os.environ[URL_KEY] = url.format(token=os.environ[TOKEN])
        base = BUILTIN_PROFILES["external-ws"]
        assert base.external is not None
        ext = base.external.model_copy(
            update={"url_env": URL_KEY, "headers_env": {"Authorization": AUTH_KEY}, "connect_timeout_s": 2.0}
        )
        services = build_agent_services(base.model_copy(update={"external": ext}))
        record = await run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS(f0=220.0)), out)
    finally:
        if bot is not None:
            await bot.stop()
    return bot, record


def _with_log(out: Path, url: str | None) -> tuple[Any, Any]:
    from voxbench.transports.virtual_loop import run_virtual

    out.mkdir(parents=True)
    sink = logger.add(out / "call.log", level="DEBUG")  # what a worker's log would hold
    try:
        return run_virtual(_external_call(out, url))
    finally:
        logger.remove(sink)


@pytest.fixture
def agent_secrets(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The external agent's header and URL token as sentinels in the environment; its URL
    variable is set (empty) for the call to fill in."""
    values = sentinels([AUTH_KEY, TOKEN])
    for k, v in values.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv(URL_KEY, "")
    return values


def test_an_external_agents_header_and_url_token_are_sent_never_written(
    tmp_path: Path, agent_secrets: dict[str, str]
) -> None:
    values = agent_secrets
    bot, record = _with_log(tmp_path / "rec", None)
    assert record.status == "completed", record.error
    path, headers = bot.connects[0]
    assert headers.get("Authorization") == values[AUTH_KEY]  # the secrets did reach the agent
    assert values[TOKEN] in path
    assert "connected to the external agent" in (tmp_path / "rec" / "call.log").read_text()
    assert leaks([tmp_path / "rec"], values) == []


def test_an_unreachable_agents_url_is_named_without_its_token(
    tmp_path: Path, agent_secrets: dict[str, str]
) -> None:
    values = agent_secrets
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:  # bound, not listening: refused
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        url = f"ws://127.0.0.1:{port}/ws?session={{token}}"  # a name no generic masker knows
        _, record = _with_log(tmp_path / "rec", url)
    error = record.error or ""
    assert record.status == "infra_failure" and "not reachable" in error, error
    assert f"ws://127.0.0.1:{port}/ws?session=" in error  # where the call went, without the token
    assert leaks([tmp_path / "rec"], values) == []


def test_a_url_is_written_without_its_credentials() -> None:
    from voxbench.transports.redact import redact_url

    keep = frozenset({"voxbench_tools"})
    assert redact_url("wss://bot:pw1@agent.example:8443/ws?token=t1&voxbench_tools=x", keep) == (
        "wss://bot:***@agent.example:8443/ws?token=***&voxbench_tools=x"
    )
    assert redact_url("wss://t2@agent.example/ws") == "wss://***@agent.example/ws"
    assert redact_url("ws://127.0.0.1:8765") == "ws://127.0.0.1:8765"
    assert redact_url("ws://[::1]:80/a?b=c") == "ws://[::1]:80/a?b=***"
    assert redact_url("ws://host:notaport/x") == "***"


def test_a_chat_endpoints_key_is_not_in_its_repr() -> None:
    from voxbench.pipelines.services.llm import ChatSettings

    s = ChatSettings("http://127.0.0.1:9/v1", "m", api_key="vbsecret-chat-key")
    assert "vbsecret-chat-key" not in repr(s) and s.api_key == "vbsecret-chat-key"
