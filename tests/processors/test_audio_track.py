"""Where the timeline track lays chunks: at arrival, contiguous in speech, re-aligned in quiet."""

from __future__ import annotations

import numpy as np
from pipecat.frames.frames import InputAudioRawFrame

from voxbench.processors.audio_track import TimelineTrack
from voxbench.processors.clock import ConversationClock
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import Speech

SR = 16000
CHUNK = 640  # 40 ms
P = CHUNK / SR


def quiet() -> np.ndarray:
    return np.zeros(CHUNK, dtype=np.int16)


def loud() -> np.ndarray:
    return np.full(CHUNK, 3000, dtype=np.int16)


def test_first_chunk_starts_where_it_arrived() -> None:
    """It used to snap to t=0 whenever it arrived within the jitter tolerance (up to -60 ms)."""
    tr = TimelineTrack(SR)
    assert tr.add(quiet(), 0.03) == 0.03
    assert tr.samples().size == round(0.03 * SR) + CHUNK


def test_quiet_chunks_undo_a_sender_running_a_chunk_ahead() -> None:
    """Pipecat's pacing sends chunk 1 right behind chunk 0, then one per period: every later
    chunk arrives a period before its end-to-end slot. Speech must land where it arrived."""
    tr = TimelineTrack(SR)
    t0 = 0.010
    arrivals = [t0, t0 + 0.001] + [t0 + (k - 1) * P for k in range(2, 12)]
    for t in arrivals[:-1]:
        tr.add(quiet(), t, quiet=True)
    start = tr.add(loud(), arrivals[-1])
    assert abs(start - arrivals[-1]) < 0.003, (start, arrivals[-1])
    assert tr.realigned >= 1


def test_without_quiet_the_track_stays_end_to_end() -> None:
    """The same early stream, all loud: nothing audible is ever dropped, so it stays a chunk late."""
    tr = TimelineTrack(SR)
    t0 = 0.010
    arrivals = [t0, t0 + 0.001] + [t0 + (k - 1) * P for k in range(2, 6)]
    starts = [tr.add(loud(), t) for t in arrivals]
    assert np.allclose(starts, [t0 + k * P for k in range(6)])
    assert tr.samples().size == round(t0 * SR) + 6 * CHUNK


def test_one_late_quiet_chunk_does_not_move_the_track() -> None:
    """Re-alignment follows the earliest arrivals (the jitter-free sender clock), not each one."""
    tr = TimelineTrack(SR)
    t0 = 0.5
    for k in range(8):
        late = 0.008 if k == 4 else 0.0
        tr.add(quiet(), t0 + k * P + late, quiet=True)
    assert tr.realigned == 0
    assert abs(tr.add(loud(), t0 + 8 * P) - (t0 + 8 * P)) < 1 / SR


def test_a_sender_that_lost_time_is_followed_in_quiet() -> None:
    """A sender 30 ms behind its old clock (a stall it did not catch up): the next quiet chunk
    after the window gets 30 ms of inserted silence, and the onset after it lands on time."""
    tr = TimelineTrack(SR, realign_window_s=0.2)
    t0, lost = 0.5, 0.030
    for k in range(5):
        tr.add(quiet(), t0 + k * P, quiet=True)
    for k in range(5, 15):
        tr.add(quiet(), t0 + k * P + lost, quiet=True)
    t = t0 + 15 * P + lost
    assert abs(tr.add(loud(), t) - t) < 0.003


def test_recorder_onset_is_when_heard_and_its_wav_position() -> None:
    """End to end in the recorder: a one-chunk-early sender, onset stamped at arrival, and the
    event time is the onset's sample position in the channel's track."""
    rec = ConversationRecorder(ConversationClock(), SR)
    t0 = 0.010
    arrivals = [t0, t0 + 0.001] + [t0 + (k - 1) * P for k in range(2, 30)]
    onset_k = 20
    for k, t in enumerate(arrivals):
        pcm = loud() if onset_k <= k < onset_k + 5 else quiet()
        rec.add_audio("user", InputAudioRawFrame(pcm.tobytes(), SR, 1), t)
    onsets = [e.t for e in rec.events if isinstance(e, Speech) and e.state == "onset"]
    assert len(onsets) == 1
    assert abs(onsets[0] - arrivals[onset_k]) < 0.003, (onsets[0], arrivals[onset_k])
    wav = rec.tracks["user"].samples()
    first_loud = int(np.flatnonzero(wav)[0])
    assert abs(first_loud / SR - onsets[0]) < 1 / SR


def test_a_late_onset_lands_at_its_arrival_but_speech_stays_contiguous() -> None:
    """A sender whose loop stalled sends the first chunk of a sound 15 ms late: it is heard
    late, so it is laid at its arrival; the rest of the sound follows end to end."""
    tr = TimelineTrack(SR)
    t0, late = 0.5, 0.015
    for k in range(5):
        tr.add(quiet(), t0 + k * P, quiet=True)
    onset_t = t0 + 5 * P + late
    assert abs(tr.add(loud(), onset_t, starts_sound=True) - onset_t) < 1 / SR
    assert abs(tr.add(loud(), t0 + 6 * P) - (onset_t + P)) < 1 / SR  # on time, but after the onset


def test_recorder_stamps_a_late_onset_when_heard() -> None:
    rec = ConversationRecorder(ConversationClock(), SR)
    t0, late = 0.5, 0.015
    for k in range(12):
        pcm = loud() if k >= 8 else quiet()
        t = t0 + k * P + (late if k == 8 else 0.0)
        rec.add_audio("agent", InputAudioRawFrame(pcm.tobytes(), SR, 1), t)
    onsets = [e.t for e in rec.events if isinstance(e, Speech) and e.state == "onset"]
    assert len(onsets) == 1 and abs(onsets[0] - (t0 + 8 * P + late)) < 1 / SR


def test_a_long_speech_segment_keeps_the_line_active() -> None:
    """``last_speech_t`` (what the inactivity limit reads) follows speech that goes on, not only
    its onset: a minute-long reply is not an idle line."""
    rec = ConversationRecorder(ConversationClock(), SR)
    for k in range(100):  # 4 s of sound with no pause
        rec.add_audio("agent", InputAudioRawFrame(loud().tobytes(), SR, 1), k * P)
    assert [e.state for e in rec.events if isinstance(e, Speech)] == ["onset"]
    assert rec.last_speech_t >= 99 * P
    for k in range(100, 130):  # then 1.2 s of silence: it stays at the end of the sound
        rec.add_audio("agent", InputAudioRawFrame(quiet().tobytes(), SR, 1), k * P)
    assert abs(rec.last_speech_t - 100 * P) < 0.02
