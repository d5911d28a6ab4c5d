"""`voxbench talk --local-audio`: the machine's microphone and speaker through PyAudio.

PyAudio (PortAudio) is optional and imported only here, lazily: without it, or without
a usable input/output device, `local_audio_transport` raises `AudioDeviceError` with
what to do instead of a traceback from deep inside pipecat. The console shows the
scenario card and a live transcript; Enter hangs up; the rating is asked in the
terminal afterwards.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from voxbench.pipelines.human.talk import TalkCall
from voxbench.records import ConversationRecord, Event, HumanRating, ToolCall, Transcript, TTSText

INSTALL_HINT = (
    "install PortAudio's headers and PyAudio: `sudo apt-get install portaudio19-dev && "
    "pip install 'voxbench[talk-local]'` (macOS: `brew install portaudio` first), "
    "or leave out --local-audio and call from the browser page"
)


class AudioDeviceError(RuntimeError):
    """No PyAudio, no device, or a device that can't do what the call needs."""


@dataclass(frozen=True)
class AudioDevices:
    input_index: int
    output_index: int
    input_name: str
    output_name: str


def import_pyaudio() -> ModuleType:
    try:
        return importlib.import_module("pyaudio")
    except ImportError as exc:  # also OSError-ish load failures surface as ImportError
        raise AudioDeviceError(
            f"--local-audio needs PyAudio, which can't be imported ({exc}): {INSTALL_HINT}"
        ) from exc


def _default_index(pa: Any, which: str, candidates: list[int]) -> int:
    getter = getattr(pa, f"get_default_{which}_device_info")
    try:
        idx = int(getter()["index"])
    except (OSError, KeyError, TypeError, ValueError):
        return candidates[0]
    return idx if idx in candidates else candidates[0]


def find_devices(
    pyaudio: ModuleType,
    sample_rate: int,
    input_device: int | None = None,
    output_device: int | None = None,
) -> AudioDevices:
    """Pick (or check) the microphone and speaker; `AudioDeviceError` says what is missing."""
    try:
        pa = pyaudio.PyAudio()
    except Exception as exc:
        raise AudioDeviceError(f"PortAudio could not start ({exc}); {INSTALL_HINT}") from exc
    try:
        infos = [pa.get_device_info_by_index(i) for i in range(pa.get_device_count())]
        inputs = [i for i, d in enumerate(infos) if int(d.get("maxInputChannels", 0)) > 0]
        outputs = [i for i, d in enumerate(infos) if int(d.get("maxOutputChannels", 0)) > 0]
        seen = f"PortAudio sees {len(infos)} audio device(s)"
        if not inputs:
            raise AudioDeviceError(
                f"no microphone found: {seen}, none with an input channel. Connect a microphone "
                "(and check the system's sound settings), or leave out --local-audio and call from the "
                "browser page"
            )
        if not outputs:
            raise AudioDeviceError(
                f"no speaker found: {seen}, none with an output channel. Connect headphones or a "
                "speaker, or leave out --local-audio and call from the browser page"
            )
        for flag, idx, ok in (
            ("--input-device", input_device, inputs),
            ("--output-device", output_device, outputs),
        ):
            if idx is not None and idx not in ok:
                listing = ", ".join(f"{i}: {infos[i].get('name', '?')}" for i in ok)
                raise AudioDeviceError(f"{flag} {idx} is not usable; choose one of {listing}")
        in_idx = input_device if input_device is not None else _default_index(pa, "input", inputs)
        out_idx = output_device if output_device is not None else _default_index(pa, "output", outputs)
        fmt = pyaudio.paInt16
        try:
            pa.is_format_supported(sample_rate, input_device=in_idx, input_channels=1, input_format=fmt)
        except ValueError as exc:
            raise AudioDeviceError(
                f"the microphone '{infos[in_idx].get('name', in_idx)}' can't record 16-bit mono at "
                f"{sample_rate} Hz ({exc}); pick another with --input-device"
            ) from exc
        try:
            pa.is_format_supported(sample_rate, output_device=out_idx, output_channels=1, output_format=fmt)
        except ValueError as exc:
            raise AudioDeviceError(
                f"the speaker '{infos[out_idx].get('name', out_idx)}' can't play 16-bit mono at "
                f"{sample_rate} Hz ({exc}); pick another with --output-device"
            ) from exc
        return AudioDevices(
            in_idx, out_idx, str(infos[in_idx].get("name", "")), str(infos[out_idx].get("name", ""))
        )
    finally:
        pa.terminate()


def local_audio_transport(
    sample_rate: int, input_device: int | None = None, output_device: int | None = None
) -> tuple[Any, AudioDevices]:
    """pipecat's `LocalAudioTransport` on checked devices (imports PyAudio only now)."""
    pyaudio = import_pyaudio()
    devices = find_devices(pyaudio, sample_rate, input_device, output_device)
    from pipecat.transports.local.audio import LocalAudioTransport, LocalAudioTransportParams

    params = LocalAudioTransportParams(
        audio_in_enabled=True,
        audio_out_enabled=True,
        audio_in_sample_rate=sample_rate,
        audio_out_sample_rate=sample_rate,
        input_device_index=devices.input_index,
        output_device_index=devices.output_index,
    )
    return LocalAudioTransport(params), devices


def console_line(ev: Event) -> str | None:
    if isinstance(ev, Transcript) and ev.final and ev.channel == "user" and ev.text.strip():
        return f"[{ev.t:6.1f}s] you:   {ev.text.strip()}"
    if isinstance(ev, TTSText) and ev.channel == "agent" and ev.text.strip():
        return f"[{ev.t:6.1f}s] agent: {ev.text.strip()}"
    if isinstance(ev, ToolCall):
        return f"[{ev.t:6.1f}s] (agent tool: {ev.name})"
    return None


def format_card(card: dict[str, Any]) -> str:
    lines = [
        f"You are calling as {card.get('caller_name') or 'the caller'} "
        f"({card['domain']} scenario {card['scenario_id']}).",
        f"Goal: {card.get('goal', '')}",
    ]
    if card.get("known"):
        lines.append("What you know:")
        lines += [f"  {k}: {v}" for k, v in card["known"].items()]
    if card.get("done_when"):
        lines.append(f"Done when: {card['done_when']}")
    return "\n".join(lines)


def _stdin_lines(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\n"))
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, name="talk-stdin", daemon=True).start()


async def _ask(queue: asyncio.Queue[str | None], prompt: str, parse: Callable[[str], Any]) -> Any:
    while True:
        print(prompt, end=" ", flush=True)
        line = await queue.get()
        if line is None:
            return None
        try:
            return parse(line.strip())
        except ValueError as exc:
            print(exc)


def _yes_no(s: str) -> bool | None:
    s = s.lower()
    if s in ("y", "yes"):
        return True
    if s in ("n", "no"):
        return False
    if s in ("", "?", "unsure", "not sure"):
        return None
    raise ValueError("answer y, n or ? (not sure)")


def _natural(s: str) -> int:
    if s not in ("1", "2", "3"):
        raise ValueError("answer 1 (awkward), 2 (okay) or 3 (natural)")
    return int(s)


async def run_local_talk(
    talk: TalkCall,
    card: dict[str, Any],
    transport: Any,
    out: Callable[[str], None] = print,
    lines: asyncio.Queue[str | None] | None = None,
) -> ConversationRecord:
    """The call in this terminal: Enter hangs up, then three rating questions.

    `lines`: where typed lines come from (default: a thread reading stdin).
    """
    talk.open(transport)

    def show(ev: Event) -> None:
        line = console_line(ev)
        if line is not None:
            out(line)

    talk.add_listener(show)
    out(format_card(card))
    await talk.prepare()
    if lines is None:
        lines = asyncio.Queue()
        _stdin_lines(asyncio.get_running_loop(), lines)
    typed = lines
    await talk.start()
    await talk.on_connected()
    out("In call: speak into the microphone. Press Enter to hang up.")

    async def hang_up_on_enter() -> None:
        await typed.get()
        talk.hang_up("person")

    waiter = asyncio.create_task(hang_up_on_enter())
    try:
        record = await talk.finish()
    finally:
        waiter.cancel()
        await talk.cancel()
    out(f"Call ended ({record.end_reason}); record: {talk.out}")
    if record.end_reason != "end_call":
        out("(press Enter to continue)")
        await lines.get()
    done = await _ask(lines, "Did the agent get your task done? [y/n/?]", _yes_no)
    natural = await _ask(lines, "How natural was it? 1 awkward, 2 okay, 3 natural:", _natural)
    comment = await _ask(lines, "Anything else? (Enter to skip)", lambda s: s)
    return talk.rate(HumanRating(task_done=done, natural=natural, comment=comment or ""))
