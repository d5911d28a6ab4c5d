"""A conversation's timeline, read from its events and audio: what the viewer draws.

Speech segments come from `speech` onset/offset events (stamped from samples) where a
channel has them, else from `audio_segment` start/end. Texts (intended and transcribed)
attach to the channel's speech segment nearest in time; tool calls and results stay at
their own time. Waveform peaks are min/max per bin, computed here from the wav files.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from voxbench.records import (
    AudioSegment,
    BargeIn,
    Event,
    LLMText,
    Speech,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    Utterance,
    VADEvent,
    Yield,
    read_events,
)
from voxbench.records.unsaid import unsaid_utterances

CHANNELS = ("user", "agent")


@dataclass
class Segment:
    channel: str
    start: float
    end: float
    intended: list[str] = field(default_factory=list)
    heard: list[str] = field(default_factory=list)
    interrupted: bool = False


@dataclass
class ToolEvent:
    t: float
    name: str
    arguments: Any
    t_result: float | None = None
    status: str | None = None
    result: Any = None


@dataclass
class Timeline:
    duration: float
    segments: dict[str, list[Segment]]
    vad: dict[str, list[tuple[float, float]]]
    barge_ins: list[tuple[float, str]]
    yields: list[tuple[float, str]]
    tools: list[ToolEvent]
    latencies: list[tuple[float, float, bool]]  # (agent onset, seconds, tool turn)


def _pairs(starts_ends: list[tuple[float, bool]], end_t: float) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    open_t: float | None = None
    for t, is_start in starts_ends:
        if is_start and open_t is None:
            open_t = t
        elif not is_start and open_t is not None:
            out.append((open_t, max(t, open_t)))
            open_t = None
    if open_t is not None:
        out.append((open_t, max(end_t, open_t)))
    return out


def build_timeline(events: list[Event], duration: float | None = None) -> Timeline:
    ev = sorted(events, key=lambda e: e.t)
    end_t = max([duration or 0.0, *(e.t for e in ev)]) if ev else (duration or 0.0)
    speech_ch = {e.channel for e in ev if isinstance(e, Speech)}
    segs: dict[str, list[Segment]] = {}
    vad: dict[str, list[tuple[float, float]]] = {}
    for ch in CHANNELS:
        marks = [(e.t, e.state == "onset") for e in ev if isinstance(e, Speech) and e.channel == ch] or [
            (e.t, e.state == "start")
            for e in ev
            if isinstance(e, AudioSegment) and e.channel == ch and ch not in speech_ch
        ]
        segs[ch] = [Segment(ch, s, e) for s, e in _pairs(marks, end_t)]
        vad[ch] = _pairs(
            [(e.t, e.state == "start") for e in ev if isinstance(e, VADEvent) and e.channel == ch], end_t
        )
    has_utt = {ch: any(isinstance(e, Utterance) and e.channel == ch for e in ev) for ch in CHANNELS}
    has_tts = {ch: any(isinstance(e, TTSText) and e.channel == ch for e in ev) for ch in CHANNELS}
    tools: dict[str, ToolEvent] = {}
    unsaid = unsaid_utterances(ev)
    for k, e in enumerate(ev):
        if k in unsaid:
            continue  # a caller line withdrawn before it was said
        if isinstance(e, Transcript) and e.final:
            _attach(segs, e.channel, e.t, e.text, heard=True)
        elif isinstance(e, Utterance):
            seg = _attach(segs, e.channel, e.t, e.text, heard=False)
            if seg is not None and e.interrupted:
                seg.interrupted = True
        elif (isinstance(e, TTSText) and not has_utt[e.channel]) or (
            isinstance(e, LLMText) and not has_utt[e.channel] and not has_tts[e.channel]
        ):
            _attach(segs, e.channel, e.t, e.text, heard=False)
        elif isinstance(e, ToolCall):
            tools[e.call_id] = ToolEvent(e.t, e.name, e.arguments)
        elif isinstance(e, ToolResult):
            te = tools.setdefault(e.call_id, ToolEvent(e.t, e.name, None))
            te.t_result, te.status, te.result = e.t, e.status, e.result
    tl = Timeline(
        duration=end_t,
        segments=segs,
        vad=vad,
        barge_ins=[(e.t, e.channel) for e in ev if isinstance(e, BargeIn)],
        yields=[(e.t, e.channel) for e in ev if isinstance(e, Yield)],
        tools=sorted(tools.values(), key=lambda x: x.t),
        latencies=[],
    )
    tl.latencies = response_latencies(tl)
    return tl


def _attach(segs: dict[str, list[Segment]], ch: str, t: float, text: str, heard: bool) -> Segment | None:
    cands = segs.get(ch) or []
    if not cands:
        seg = Segment(ch, t, t)  # text with no audio: show it at its own time
        segs.setdefault(ch, []).append(seg)
        segs[ch].sort(key=lambda s: s.start)
        cands = segs[ch]
    best = min(cands, key=lambda s: 0.0 if s.start <= t <= s.end else min(abs(t - s.start), abs(t - s.end)))
    (best.heard if heard else best.intended).append(text)
    return best


def response_latencies(tl: Timeline) -> list[tuple[float, float, bool]]:
    """Agent response latency: agent speech onset minus the caller's last speech offset
    before it (only when the caller spoke since the agent's previous onset); a tool turn
    has a tool call between the two."""
    out: list[tuple[float, float, bool]] = []
    user = tl.segments.get("user", [])
    prev_agent = -1.0
    for a in tl.segments.get("agent", []):
        ends = [u.end for u in user if prev_agent < u.start and u.end <= a.start]
        if ends:
            u_end = max(ends)
            tool = any(u_end - 0.05 <= t.t <= a.start for t in tl.tools)
            out.append((a.start, a.start - u_end, tool))
        prev_agent = a.start
    return out


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """(samples as float32 in [-1, 1] shaped (n, channels), sample rate); PCM16/8/32."""
    with wave.open(str(path), "rb") as w:
        sr, nch, width, n = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()
        raw = w.readframes(n)
    dtype = {1: np.uint8, 2: np.int16, 4: np.int32}.get(width)
    if dtype is None:
        raise ValueError(f"{path}: unsupported sample width {width}")
    a = np.frombuffer(raw, dtype=dtype).astype(np.float32)
    if width == 1:
        a = (a - 128.0) / 128.0
    else:
        a /= float(2 ** (8 * width - 1))
    return a.reshape(-1, nch), sr


def peaks(samples: np.ndarray, sr: int, duration: float, bins: int) -> list[float]:
    """Peak |amplitude| per bin over [0, duration] (a mono 1-D array)."""
    n_total = round(duration * sr)
    x = np.zeros(max(n_total, bins), dtype=np.float32)
    m = min(len(samples), len(x))
    x[:m] = np.abs(samples[:m])
    edges = np.linspace(0, len(x), bins + 1).astype(int)
    out = np.maximum.reduceat(x, edges[:-1]) if len(x) else np.zeros(bins)
    return [round(float(v), 3) for v in out[:bins]]


def channel_audio(conv_dir: Path, audio: Any) -> dict[str, tuple[np.ndarray, int]]:
    """Per-channel mono audio from user.wav / agent.wav, else split mix.wav (L user, R agent)."""
    out: dict[str, tuple[np.ndarray, int]] = {}
    names = {
        "user": getattr(audio, "user", None) or "user.wav",
        "agent": getattr(audio, "agent", None) or "agent.wav",
    }
    for ch, rel in names.items():
        p = conv_dir / rel
        if p.is_file():
            a, sr = read_wav(p)
            out[ch] = (a.mean(axis=1), sr)
    mix = conv_dir / (getattr(audio, "mix", None) or "mix.wav")
    if len(out) < 2 and mix.is_file():
        a, sr = read_wav(mix)
        for i, ch in enumerate(CHANNELS):
            if ch not in out and a.shape[1] > i:
                out[ch] = (a[:, i], sr)
    return out


def audio_duration(conv_dir: Path, audio: Any) -> float:
    best = 0.0
    for rel in (getattr(audio, k, None) for k in ("mix", "user", "agent")):
        if rel and (conv_dir / rel).is_file():
            with wave.open(str(conv_dir / rel), "rb") as w:
                best = max(best, w.getnframes() / w.getframerate())
    return best


def load_events(conv_dir: Path) -> list[Event]:
    p = conv_dir / "events.jsonl"
    return read_events(p) if p.is_file() else []
