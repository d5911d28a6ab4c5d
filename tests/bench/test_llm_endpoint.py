"""`caller check --simulator llm` on any OpenAI-compatible endpoint: a small one served here over HTTP
(stdlib server, streamed chat completions with the caller's JSON turn), graded like any caller."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from voxbench.bench.cv import grade
from voxbench.bench.llm_caller import LLMCaller

from ..pipelines.caller_goal.conftest import make_scenario

TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need to change my flight."),
    ("agent", "May I have your confirmation number and last name?"),
    ("user", "Z K three F F W. Lima."),
    ("agent", "I found a nonstop at one PM with a fifty dollar fee. Would you like me to book it?"),
    ("user", "Yes, please."),
    ("agent", "You're all set. Goodbye."),
]
ANSWERS = (  # what this endpoint's 'model' says, by the latest agent words in its last message
    ("confirmation number", "Z K three F F W. Lima.", False),
    ("book it", "Yes, please.", False),
    ("all set", "Thanks, bye.", True),
)


class _Endpoint(BaseHTTPRequestHandler):
    seen_models: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen_models.append(body["model"])
        last = body["messages"][-1]["content"]
        at = [(last.rfind(cue), s, e) for cue, s, e in ANSWERS if cue in last]  # the latest agent words
        _, says, end = max(at, default=(0, "Okay.", False))
        turn = json.dumps({"customer_says": says, "end_call": end})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for piece in (turn[i : i + 8] for i in range(0, len(turn), 8)):
            self._event({"content": piece}, None)
        self._event({}, "stop")
        self.wfile.write(b"data: [DONE]\n\n")

    def _event(self, delta: dict[str, str], finish: str | None) -> None:
        chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_the_llm_caller_on_an_openai_compatible_endpoint_is_graded(endpoint: str) -> None:
    sc = make_scenario({"confirmation_number": "ZK3FFW", "last_name": "Lima"}, trace=TRACE)
    llm = LLMCaller(base_url=endpoint, model="tiny-caller", api_key_env="VOXBENCH_TEST_NO_KEY")
    try:
        rep = grade(llm, [("airline", sc)], "tiny", say=lambda _: None)
    finally:
        llm.close()
    o = rep.figures["in_sample"]["overall"]
    assert o["requests_answered_right_pct"] == 100.0 and o["decisions_matched_pct"] == 100.0
    assert o["premature_endings"] == 0 and o["missed_endings"] == 0 and o["invented_facts"] == 0
    assert set(_Endpoint.seen_models) == {"tiny-caller"}
    assert rep.figures["kfold"] == rep.figures["in_sample"] and "nothing fitted" in rep.note
