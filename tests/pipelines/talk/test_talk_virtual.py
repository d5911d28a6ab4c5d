"""A person's call (`voxbench talk`) on the virtual clock: the same TalkCall and CallSession,
the person a scripted audio client on the real loopback WebSocket.

The browser and local-audio tests reach the person's real transports but run in real time
(Chromium and PortAudio pace themselves). Here the person's transport is the agent's usual
loopback server, and the "person" a real pipecat client pipeline playing two buzzes from a
microphone script, so the whole call runs on a ``VirtualClockLoop``: the person's onsets,
the hang-up and the record's end are asserted exactly, and two runs record alike.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pipecat.frames.frames import CancelFrame, EndFrame, Frame, OutputAudioRawFrame, StartFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.workers.runner import WorkerRunner

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply, buzz
from tests.pipelines.talk.test_talk_browser import fast_config, talk_call
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.call.lifecycle import PipelineTask, make_worker, stop_worker
from voxbench.pipelines.human.talk import TalkCall
from voxbench.processors.clock import ConversationClock
from voxbench.records import AgentInfo, EndEvent, Event, HumanRating, Speech, Transcript, TTSText, read_record
from voxbench.transports.pairing import free_port
from voxbench.transports.serializers import AudioOnlyProtobufSerializer
from voxbench.transports.wire import make_client, make_server

SR = 16000
SAYS = [(1.0, 1.0), (4.5, 1.0)]  # the person's two lines: (seconds after connecting, length)
HANG_UP_AFTER_S = 0.5  # after the agent's "Goodbye" has been said


class Microphone(FrameProcessor):
    """Plays the person's lines at their times (the loop's clock) into the client's output."""

    def __init__(self, says: list[tuple[float, float]]):
        super().__init__()
        self.says = says
        self._task: asyncio.Task | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        await self.push_frame(frame, direction)
        if isinstance(frame, StartFrame):
            self._task = self.create_task(self._speak())
        elif isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None

    async def _speak(self) -> None:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        for at, length in self.says:
            await asyncio.sleep(max(0.0, t0 + at - loop.time()))
            pcm = buzz(length, SR, f0=190.0, level_db=-12.0)
            await self.push_frame(OutputAudioRawFrame(pcm.tobytes(), SR, 1))


def fake_agent() -> AgentServices:
    return AgentServices(
        stt=FakeSTT(["Hi, I'd like to add a checked bag.", "Thanks, bye."]),
        llm=FakeLLM([Reply("Sure, what's your confirmation code?"), Reply("Goodbye!")]),
        tts=FakeTTS(f0=120.0),
        info=AgentInfo(name="fake"),
    )


async def person_call(out: Path) -> tuple[TalkCall, list[Event]]:
    """The person calls, says two lines, hangs up half a second after the agent's goodbye."""
    cfg = fast_config()
    port = free_port(cfg.wire.host)
    server = make_server(cfg.wire, port)
    listening = asyncio.Event()
    talk = talk_call(out, fake_agent(), interface="loopback-websocket")

    @server.event_handler("on_websocket_ready")
    async def _ready(_t: Any) -> None:
        listening.set()

    @server.event_handler("on_client_connected")
    async def _connected(_t: Any, _ws: Any) -> None:
        await talk.on_connected()

    @server.event_handler("on_client_disconnected")
    async def _gone(_t: Any, _ws: Any) -> None:
        talk.on_disconnected()

    heard: list[Event] = []
    goodbye = asyncio.Event()

    def listen(ev: Event) -> None:
        heard.append(ev)
        if isinstance(ev, TTSText) and "Goodbye" in ev.text:
            goodbye.set()

    talk.open(server)
    talk.add_listener(listen)
    await talk.prepare()
    await talk.start()
    await listening.wait()
    client = make_client(cfg.wire, port, AudioOnlyProtobufSerializer())
    pipeline = Pipeline([client.input(), Microphone(SAYS), client.output()])
    worker = make_worker(pipeline, ConversationClock(), [], SR, "person")
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    task = PipelineTask(runner.run(), "person")
    await goodbye.wait()
    await asyncio.sleep(HANG_UP_AFTER_S)
    assert talk.hang_up("person")
    await talk.finish()
    await stop_worker(worker, task, 5.0)
    return talk, heard


@pytest.mark.timeout(120)
def test_person_call_on_the_virtual_clock_is_exact_and_recorded_once(tmp_path: Path) -> None:
    from voxbench.transports.virtual_loop import run_virtual

    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        talk, heard = run_virtual(person_call(out))
        assert talk.request is not None and talk.state == "ended"
        bundle = read_record(out)
        runs.append(bundle)
        rec = bundle.record
        # the spec's coordinates and seeds, the typed infos, written by the one runner
        assert (rec.conversation_id, rec.domain, rec.scenario_id) == (
            "airline-bb.1-human-test",
            "airline",
            "bb.1",
        )
        assert set(rec.seeds) == {"conversation", "attempt"}
        assert rec.agent.name == "fake"
        assert (rec.simulator.kind, rec.simulator.interface) == ("human", "loopback-websocket")
        assert (rec.status, rec.end_reason) == ("completed", "end_call")
        assert rec.extra["human_call"] is True and rec.extra["hangup_by"] == "person"
        assert rec.extra["agent_audio_chunks"] > 0 and "usage" in rec.extra
        # the person's two lines, heard and transcribed by the agent, 3.5 s apart as said: a line
        # leaves on the client's next chunk slot, so the gap may grow by up to one chunk
        user_onsets = [
            e.t for e in bundle.events if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"
        ]
        gap = user_onsets[1] - user_onsets[0]
        chunk_s = fast_config().wire.chunk_ms / 1000
        assert len(user_onsets) == 2 and 3.5 <= round(gap, 6) <= 3.5 + chunk_s, user_onsets
        assert [e.text for e in bundle.events if isinstance(e, Transcript) and e.channel == "user"] == [
            "Hi, I'd like to add a checked bag.",
            "Thanks, bye.",
        ]
        # a person who hangs up is not waited for: the call ends at the next watch tick
        bye = next(e.t for e in heard if isinstance(e, TTSText) and "Goodbye" in e.text)
        end = next(e for e in bundle.events if isinstance(e, EndEvent))
        assert bye + HANG_UP_AFTER_S <= end.t < bye + HANG_UP_AFTER_S + 0.05 + 1e-9
        assert rec.duration_s == round(end.t, 3)
        # the rating is added afterwards, the rest of the record untouched
        rated = talk.rate(HumanRating(task_done=None, natural=2, comment=""))
        assert read_record(out).record.human_rating == rated.human_rating
    a, b = ([(type(e).__name__, getattr(e, "channel", None), e.t) for e in r.events] for r in runs)
    assert a == b
    assert np.array_equal(*(np.asarray([e.t for e in r.events]) for r in runs))
