"""`voxbench talk --local-audio`, tested up to the device boundary.

- without PyAudio, and with PyAudio but no devices (this machine), the error says what to do;
- device choice and format checks against a fake PyAudio module;
- a whole call through pipecat's real `LocalAudioTransport` whose PortAudio is a fake
  that plays a WAV as the microphone and swallows the speaker at real-time pace.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import pytest

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply, buzz
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.human.talk import scenario_card
from voxbench.pipelines.human.talk_local import (
    AudioDeviceError,
    find_devices,
    import_pyaudio,
    local_audio_transport,
    run_local_talk,
)
from voxbench.records import AgentInfo, Speech, Transcript, read_record

SR = 16000


class FakeStream:
    def __init__(self, pa: FakePyAudio, kw: dict[str, Any]):
        self.pa, self.kw = pa, kw
        self.stopped = threading.Event()
        self.written = 0

    def start_stream(self) -> None:
        cb = self.kw.get("stream_callback")
        if cb is None:
            return
        n = self.kw["frames_per_buffer"]

        def feed() -> None:
            mic, pos, t0, k = self.pa.mic, 0, time.monotonic(), 0
            while not self.stopped.is_set():
                chunk = mic[pos : pos + n]
                if chunk.size < n:
                    chunk = np.zeros(n, dtype=np.int16)
                pos += n
                cb(chunk.tobytes(), n, {}, 0)
                k += 1
                time.sleep(max(0.0, t0 + k * n / SR - time.monotonic()))

        threading.Thread(target=feed, daemon=True).start()

    def write(self, data: bytes) -> None:
        self.written += len(data)
        time.sleep(len(data) / 2 / self.kw["rate"])

    def stop_stream(self) -> None:
        self.stopped.set()

    def close(self) -> None:
        self.stopped.set()


class FakePyAudio:
    devices: ClassVar[list[dict[str, Any]]] = []
    default_in: ClassVar[int | None] = None
    default_out: ClassVar[int | None] = None
    unsupported: ClassVar[set[int]] = set()
    mic: ClassVar[np.ndarray] = np.zeros(0, dtype=np.int16)
    streams: ClassVar[list[FakeStream]] = []

    def get_device_count(self) -> int:
        return len(self.devices)

    def get_device_info_by_index(self, i: int) -> dict[str, Any]:
        return {"index": i, **self.devices[i]}

    def get_default_input_device_info(self) -> dict[str, Any]:
        if self.default_in is None:
            raise OSError("No Default Input Device Available")
        return {"index": self.default_in}

    def get_default_output_device_info(self) -> dict[str, Any]:
        if self.default_out is None:
            raise OSError("No Default Output Device Available")
        return {"index": self.default_out}

    def is_format_supported(self, rate: int, **kw: Any) -> bool:
        dev = kw.get("input_device", kw.get("output_device"))
        if dev in self.unsupported:
            raise ValueError("Invalid sample rate")
        return True

    def get_format_from_width(self, w: int) -> int:
        return 8

    def open(self, **kw: Any) -> FakeStream:
        s = FakeStream(self, kw)
        type(self).streams.append(s)
        return s

    def terminate(self) -> None:
        pass


def fake_pyaudio(
    devices: list[dict[str, Any]], default_in: int | None = None, default_out: int | None = None
):
    mod = ModuleType("pyaudio")
    cls = type(
        "PyAudio",
        (FakePyAudio,),
        {
            "devices": devices,
            "default_in": default_in,
            "default_out": default_out,
            "streams": [],
            "unsupported": set(),
        },
    )
    mod.PyAudio = cls  # type: ignore[attr-defined]
    mod.paInt16 = 8  # type: ignore[attr-defined]
    mod.paContinue = 0  # type: ignore[attr-defined]
    return mod, cls


MIC = {"name": "USB mic", "maxInputChannels": 1, "maxOutputChannels": 0}
SPK = {"name": "Speakers", "maxInputChannels": 0, "maxOutputChannels": 2}


def test_missing_pyaudio_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyaudio", None)
    with pytest.raises(AudioDeviceError, match=r"needs PyAudio.*portaudio19-dev.*browser page"):
        import_pyaudio()
    with pytest.raises(AudioDeviceError, match="needs PyAudio"):
        local_audio_transport(SR)


def test_real_pyaudio_without_devices_is_a_clear_error() -> None:
    pyaudio = pytest.importorskip("pyaudio", reason="PyAudio not installed (needs portaudio19-dev to build)")
    pa = pyaudio.PyAudio()
    n = pa.get_device_count()
    pa.terminate()
    if n:
        pytest.skip(f"this machine has {n} audio devices; the no-device path needs none")
    with pytest.raises(AudioDeviceError, match=r"no microphone found: PortAudio sees 0 audio device"):
        local_audio_transport(SR)


def test_device_choice_and_checks() -> None:
    mod, _ = fake_pyaudio([SPK])
    with pytest.raises(AudioDeviceError, match="no microphone found: PortAudio sees 1 audio device"):
        find_devices(mod, SR)
    mod, _ = fake_pyaudio([MIC])
    with pytest.raises(AudioDeviceError, match="no speaker found"):
        find_devices(mod, SR)
    # no default device: the first usable one
    mod, _ = fake_pyaudio([SPK, MIC, MIC])
    d = find_devices(mod, SR)
    assert (d.input_index, d.output_index, d.input_name) == (1, 0, "USB mic")
    # defaults win when usable; explicit indexes win over defaults
    mod, cls = fake_pyaudio([SPK, MIC, MIC], default_in=2, default_out=0)
    assert find_devices(mod, SR).input_index == 2
    assert find_devices(mod, SR, input_device=1).input_index == 1
    with pytest.raises(
        AudioDeviceError, match=r"--input-device 0 is not usable; choose one of 1: USB mic, 2"
    ):
        find_devices(mod, SR, input_device=0)
    cls.unsupported = {2}
    with pytest.raises(AudioDeviceError, match="can't record 16-bit mono at 16000 Hz"):
        find_devices(mod, SR)


def test_cli_fails_before_loading_models(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from voxbench.cli.main import main

    mod, _ = fake_pyaudio([])
    monkeypatch.setitem(sys.modules, "pyaudio", mod)
    import voxbench.pipelines.local_stack as ls

    monkeypatch.setattr(
        ls, "start_llm_server", lambda *_a: pytest.fail("models loaded before the device check")
    )
    assert main(["talk", "--scenario", "bb.1", "--local-audio"]) == 2
    err = capsys.readouterr().err
    assert "no microphone found" in err and "browser page" in err


@pytest.mark.timeout(120)
async def test_local_call_through_fake_portaudio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.pipelines.talk.test_talk_browser import talk_call

    mod, cls = fake_pyaudio([MIC, SPK], default_in=0, default_out=1)
    mic = np.zeros(SR * 8, dtype=np.int16)
    for t in (1.5, 5.0):
        seg = buzz(1.0, SR, f0=190.0, level_db=-12.0)
        mic[int(t * SR) : int(t * SR) + seg.size] = seg
    cls.mic = mic
    monkeypatch.setitem(sys.modules, "pyaudio", mod)
    import pipecat.transports.local.audio as la

    monkeypatch.setattr(la, "pyaudio", mod)
    transport, devices = local_audio_transport(SR)
    assert devices.input_name == "USB mic"

    services = AgentServices(
        stt=FakeSTT(["Hi, I'd like to add a checked bag.", "Thanks, bye."]),
        llm=FakeLLM([Reply("Sure, what's your confirmation code?"), Reply("Goodbye!")]),
        tts=FakeTTS(f0=120.0),
        info=AgentInfo(name="fake"),
    )
    talk = talk_call(tmp_path / "rec", services, interface="local-audio")
    said: list[str] = []
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    async def person() -> None:
        while not any("Goodbye" in s for s in said):
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        for answer in ("", "y", "2", "fine"):
            await lines.put(answer)

    typer = asyncio.create_task(person())
    record = await asyncio.wait_for(
        run_local_talk(talk, scenario_card(talk.call), transport, said.append, lines), 90
    )
    await typer
    text = "\n".join(said)
    assert "You are calling as Dana Whitfield" in text and "you:   Hi, I'd like to add a checked bag." in text
    assert record.end_reason == "end_call" and record.status == "completed"
    assert record.human_rating is not None and record.human_rating.task_done is True
    assert record.human_rating.natural == 2 and record.human_rating.comment == "fine"
    b = read_record(tmp_path / "rec")
    assert b.record.simulator.interface == "local-audio"
    onsets = [e.t for e in b.events if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(onsets) == 2 and abs((onsets[1] - onsets[0]) - 3.5) < 0.1, onsets
    assert [e.text for e in b.events if isinstance(e, Transcript) and e.channel == "user"] == [
        "Hi, I'd like to add a checked bag.",
        "Thanks, bye.",
    ]
    # the speaker got the agent's audio, and the agent channel was recorded from it
    out_streams = [s for s in cls.streams if s.kw.get("output")]
    assert out_streams and out_streams[0].written > SR  # > 0.5 s of 16-bit audio
    agent_onsets = [
        e for e in b.events if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"
    ]
    assert len(agent_onsets) >= 3  # greeting + two answers
