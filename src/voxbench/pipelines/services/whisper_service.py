"""faster-whisper behind pipecat's ``SegmentedSTTService``: one transcription per VAD segment.

Imports pipecat; :func:`~.stt.make_whisper_stt` imports this module on use.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

from pipecat.frames.frames import ErrorFrame, Frame, TranscriptionFrame
from pipecat.services.settings import STTSettings
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.transcriptions.language import Language
from pipecat.utils.time import time_now_iso8601

from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber

LOCAL_TTFS_P99_S = 3.0
"""How long a turn waits, after speech ends, for the transcript of its last segment.

Pipecat's turn-stop strategies end a turn when the final transcript arrives or, as a safety
net, ``ttfs_p99_latency`` after speech ended, whichever comes first; for whisper it assumes
1.0 s (a cloud service's figure). Here whisper runs on the same 2 cores as the agent's LLM and
both voices: measured 0.86-1.45 s per segment in a quiet make run and more under load, so the
net fired first and the turn ended without its last words. Those words then arrived as a
turn of their own: the goal caller answered a request it had heard only half of, then
answered again; the agent's LLM got one answer as several user messages (live bb.1/bb.2,
2026-12-04). A segmented STT yields exactly one transcript per segment, so waiting for it
costs nothing when it comes; the net bounds a transcription that never comes (a segment of
noise with no words: its turn now ends up to 2 s later than with pipecat's 1.0 s).
"""


class LocalWhisperSTTService(SegmentedSTTService):
    """faster-whisper from installed packages; one ``TranscriptionFrame`` per VAD segment."""

    def __init__(self, *, options: WhisperOptions | None = None, **kwargs: Any) -> None:
        opts = options or WhisperOptions()
        kwargs.setdefault("ttfs_p99_latency", LOCAL_TTFS_P99_S)
        super().__init__(settings=STTSettings(model=opts.model, language=opts.language), **kwargs)
        self._transcriber = WhisperTranscriber(opts)

    @property
    def wants_wav_segments(self) -> bool:
        return False

    @property
    def transcriber(self) -> WhisperTranscriber:
        return self._transcriber

    def can_generate_metrics(self) -> bool:
        return True

    async def run_stt(self, audio: bytes) -> AsyncGenerator[Frame, None]:
        await self.start_processing_metrics()
        try:
            text = await asyncio.to_thread(self._transcriber.transcribe_pcm16, audio, self.sample_rate)
        except Exception as e:  # pragma: no cover - surfaced as a pipeline error
            yield ErrorFrame(error=f"whisper transcription failed: {e}")
            return
        finally:
            await self.stop_processing_metrics()
        if text:
            lang = Language.EN if self._transcriber.options.language == "en" else None
            yield TranscriptionFrame(text, self._user_id, time_now_iso8601(), lang)
