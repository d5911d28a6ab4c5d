"""Pairing the two ends: ports, readiness, and transport params with the pitfall fixes."""

from __future__ import annotations

import asyncio
import contextlib
import socket

from pipecat.audio.mixers.base_audio_mixer import BaseAudioMixer
from pipecat.serializers.base_serializer import FrameSerializer
from pipecat.transports.websocket.client import WebsocketClientParams
from pipecat.transports.websocket.server import SingleClientWebsocketServerParams


def free_port(host: str = "127.0.0.1") -> int:
    """An ephemeral port the OS considers free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


async def wait_for_server(host: str, port: int, timeout_s: float = 10.0, interval_s: float = 0.05) -> None:
    """Block until a TCP connect to `host:port` succeeds (pitfall d).

    Pipecat's websocket client connects once, in `setup()`, without retry; a refused
    connect leaves a pipeline running with unusable transports. The probe is plain TCP
    (closed before any websocket handshake), so it never takes the server's single
    client slot. Raises `TimeoutError` after `timeout_s`.
    """
    deadline = asyncio.get_running_loop().time() + timeout_s
    last: Exception | None = None
    while asyncio.get_running_loop().time() < deadline:
        try:
            _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout=interval_s * 10)
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
            return
        except (OSError, TimeoutError) as exc:
            last = exc
            await asyncio.sleep(interval_s)
    raise TimeoutError(f"no server listening on {host}:{port} after {timeout_s}s ({last})")


def _tens(chunk_ms: int) -> int:
    if chunk_ms < 10 or chunk_ms % 10:
        raise ValueError(f"chunk_ms must be a positive multiple of 10, got {chunk_ms}")
    return chunk_ms // 10


def server_params(
    serializer: FrameSerializer, sample_rate: int, mixer: BaseAudioMixer | None = None, chunk_ms: int = 40
) -> SingleClientWebsocketServerParams:
    """The agent's end: audio in and out at the pipeline rate, no WAV headers, `chunk_ms` per message."""
    return SingleClientWebsocketServerParams(
        serializer=serializer,
        audio_in_enabled=True,
        audio_out_enabled=True,
        audio_in_sample_rate=sample_rate,
        audio_out_sample_rate=sample_rate,
        add_wav_header=False,
        audio_out_mixer=mixer,
        audio_out_end_silence_secs=0,
        audio_out_10ms_chunks=_tens(chunk_ms),
    )


def client_params(
    serializer: FrameSerializer, sample_rate: int, mixer: BaseAudioMixer | None = None, chunk_ms: int = 40
) -> WebsocketClientParams:
    """The simulator's end. `add_wav_header` defaults to True in pipecat (pitfall c):
    every 40 ms chunk would carry a 44-byte header the server plays as audio."""
    return WebsocketClientParams(
        serializer=serializer,
        audio_in_enabled=True,
        audio_out_enabled=True,
        audio_in_sample_rate=sample_rate,
        audio_out_sample_rate=sample_rate,
        add_wav_header=False,
        audio_out_mixer=mixer,
        audio_out_end_silence_secs=0,
        audio_out_10ms_chunks=_tens(chunk_ms),
    )
