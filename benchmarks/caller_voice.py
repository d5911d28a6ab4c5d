"""Which caller voice: pitch-shifted Piper joe or a Kokoro voice? Prints one table.

    .venv/bin/python benchmarks/caller_voice.py [--voices user-piper,kokoro:jm_kumo,...] [--wav-dir /tmp/cv]

For every candidate caller voice (and the agent's plain Piper joe as the reference):

* speed: load time, RTF = synth time / audio duration on the 15-word sentence of
  offline-models.md (median of 3 after a warm-up, output 16 kHz) with 2 and with 1 onnxruntime
  thread (live, the caller shares 2 cores with the agent's STT and LLM, so 1 thread is closer to
  what it gets), and RTF while faster-whisper tiny.en transcribes in a second thread
  (``contended``), with whisper's own RTF slow-down next to it;
* intelligibility: corpus WER (eval's normaliser) and key-entity accuracy of faster-whisper
  tiny.en int8 beam 5 (voxbench's STT) on the built-in scenarios' caller lines plus five
  entity-dense lines (codes, phone number, flight), the caller's side of a real call;
* distinctness from the agent: median F0 and its distance in semitones, duration of the same
  lines relative to the agent, and a separability score of MFCC timbre: distance between the
  two voices' per-line mean-MFCC centroids over the pooled within-voice spread (d'; lines are
  identical texts, so only the voice differs), plus leave-one-out nearest-centroid accuracy;
* accent proxy: the probability whisper base (multilingual) gives English, averaged over lines.

Not a test: speed depends on the machine and on its load (printed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from models import TTS_SENTENCE, UTTERANCES, table  # noqa: E402
from perturbation_stt import entities, squash, user_lines  # noqa: E402

RATE = 16_000
DEFAULT_VOICES = (
    "agent,user-piper,user-high,kokoro:jm_kumo,kokoro:jf_alpha,kokoro:jf_nezumi,"
    "kokoro:jf_gongitsune,kokoro:jf_tebukuro"
)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def make_synth(voice: str, threads: int | None) -> Any:
    from voxbench.pipelines.services.tts import make_synth as _make

    return _make(voice, n_threads=threads)


def pcm_float(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0


def rtf(synth: Any, repeats: int) -> float:
    synth.synthesize("Warm up.", RATE)
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        pcm = synth.synthesize(TTS_SENTENCE, RATE)
        runs.append((time.perf_counter() - t0) / (len(pcm) / 2 / RATE))
    return statistics.median(runs)


def contended_rtf(synth: Any, whisper: Any, clip: np.ndarray, repeats: int) -> tuple[float, float]:
    """(TTS RTF, whisper RTF) while both run at once in two threads."""
    stop = threading.Event()
    stt_rtfs: list[float] = []

    def stt_loop() -> None:
        while not stop.is_set():
            t0 = time.perf_counter()
            whisper.transcribe(clip)
            stt_rtfs.append((time.perf_counter() - t0) / (len(clip) / RATE))

    th = threading.Thread(target=stt_loop, daemon=True)
    th.start()
    time.sleep(0.3)
    tts = rtf(synth, repeats)
    stop.set()
    th.join()
    return tts, statistics.median(stt_rtfs) if stt_rtfs else float("nan")


def median_f0(x: np.ndarray, sr: int = RATE) -> float:
    """Autocorrelation F0 over voiced 40 ms frames (rms above 0.05 and a clear peak)."""
    f0, win = [], int(0.04 * sr)
    for i in range(0, len(x) - win, win // 2):
        w = x[i : i + win] - x[i : i + win].mean()
        if np.sqrt(np.mean(w**2)) < 0.05:
            continue
        ac = np.correlate(w, w, "full")[win - 1 :]
        lo, hi = sr // 400, sr // 60
        k = lo + int(np.argmax(ac[lo:hi]))
        if ac[k] > 0.3 * ac[0]:
            f0.append(sr / k)
    return float(np.median(f0)) if f0 else float("nan")


def _mel_bank(n_fft: int, sr: int, n_mels: int = 26) -> np.ndarray:
    mel = np.linspace(0, 2595 * np.log10(1 + (sr / 2) / 700), n_mels + 2)
    hz = 700 * (10 ** (mel / 2595) - 1)
    bins = np.floor((n_fft + 1) * hz / sr).astype(int)
    bank = np.zeros((n_mels, n_fft // 2 + 1))
    for m in range(1, n_mels + 1):
        a, b, c = bins[m - 1], bins[m], bins[m + 1]
        bank[m - 1, a:b] = (np.arange(a, b) - a) / max(b - a, 1)
        bank[m - 1, b:c] = (c - np.arange(b, c)) / max(c - b, 1)
    return bank


def mean_mfcc(x: np.ndarray, sr: int = RATE) -> np.ndarray:
    """Mean MFCC 1-12 over frames within 30 dB of the loudest (speech only): a timbre summary."""
    from scipy.fft import dct

    n, hop, n_fft = int(0.025 * sr), int(0.01 * sr), 512
    frames = np.lib.stride_tricks.sliding_window_view(x, n)[::hop] * np.hamming(n)
    power = np.abs(np.fft.rfft(frames, n_fft)) ** 2
    energy = 10 * np.log10(power.sum(axis=1) + 1e-12)
    keep = energy > energy.max() - 30
    logmel = np.log(power[keep] @ _mel_bank(n_fft, sr).T + 1e-10)
    return np.asarray(dct(logmel, type=2, norm="ortho", axis=1)[:, 1:13].mean(axis=0))


def separability(a: list[np.ndarray], b: list[np.ndarray]) -> tuple[float, float]:
    """(d', leave-one-out nearest-centroid accuracy) of two sets of per-line MFCC means."""
    xa, xb = np.stack(a), np.stack(b)
    spread = np.sqrt((xa.var(axis=0).sum() + xb.var(axis=0).sum()) / 2)
    d = float(np.linalg.norm(xa.mean(axis=0) - xb.mean(axis=0)) / spread)
    right = 0
    for own, other in ((xa, xb), (xb, xa)):
        for i in range(len(own)):
            rest = np.delete(own, i, axis=0).mean(axis=0)
            right += np.linalg.norm(own[i] - rest) < np.linalg.norm(own[i] - other.mean(axis=0))
    return d, right / (len(xa) + len(xb))


def speed_row(voice: str, whisper: Any, line: str, repeats: int) -> list[Any]:
    t0 = time.perf_counter()
    synth = make_synth(voice, 2)
    load_s = time.perf_counter() - t0
    r2 = rtf(synth, repeats)
    r1 = rtf(make_synth(voice, 1), repeats)
    clip = pcm_float(synth.synthesize(line, RATE))
    whisper.transcribe(clip)  # warm-up
    t0 = time.perf_counter()
    whisper.transcribe(clip)
    stt_alone = (time.perf_counter() - t0) / (len(clip) / RATE)
    rc, stt_c = contended_rtf(make_synth(voice, 1), whisper, clip, repeats)
    return [synth.params.voice_id, load_s, r2, r1, rc, f"{stt_alone:.3f}->{stt_c:.3f}", load()]


def english_prob(lid: Any, clips: list[np.ndarray]) -> float:
    """Mean probability whisper base (multilingual) gives English: an accent proxy."""
    probs = []
    for c in clips:
        _, _, ranked = lid.model.detect_language(c)
        probs.append(dict(ranked).get("en", 0.0))
    return float(np.mean(probs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--voices", default=DEFAULT_VOICES)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=["speed", "quality"], default=None)
    ap.add_argument("--wav-dir", type=Path, default=None, help="write each voice's first lines as WAVs")
    a = ap.parse_args()

    import jiwer

    from voxbench.eval.normalize import normalize_text
    from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber

    print(f"machine: {os.cpu_count()} CPUs; load avg at start {load()}")
    lines = [line for _, line in user_lines()] + [t for t, _ in UTTERANCES]
    whisper = WhisperTranscriber(WhisperOptions(model="tiny.en", cpu_threads=2))
    voices = [v.strip() for v in a.voices.split(",") if v.strip()]
    if any(v.startswith("kokoro:") for v in voices):
        from voxbench.localmodels.kokoro import kokoro_model_path

        t0 = time.perf_counter()
        kokoro_model_path()  # first use assembles + hashes the parts; not part of "load s"
        print(f"Kokoro model ready (assembly/check {time.perf_counter() - t0:.2f} s)")
    if a.only in (None, "speed"):
        rows = []
        for voice in voices:
            rows.append(speed_row(voice, whisper, lines[0], a.repeats))
            print(f"  {voice}: speed done (load avg {load()})", flush=True)
        table(
            "Caller voice speed (15-word sentence, 16 kHz out; RTF median of "
            f"{a.repeats}; contended = 1 thread while whisper tiny.en runs)",
            [
                "voice",
                "load s",
                "RTF 2thr",
                "RTF 1thr",
                "RTF contended",
                "whisper RTF alone->contended",
                "load",
            ],
            rows,
        )
    if a.only == "speed":
        return
    lid = WhisperTranscriber(WhisperOptions(model="base", language=None, cpu_threads=2))
    audio: dict[str, list[np.ndarray]] = {}
    quality = []
    for voice in voices:
        synth = make_synth(voice, 2)
        clips = audio[voice] = [pcm_float(synth.synthesize(t, RATE)) for t in lines]
        if a.wav_dir:
            import soundfile as sf

            a.wav_dir.mkdir(parents=True, exist_ok=True)
            for i, c in enumerate(clips[:3]):
                sf.write(str(a.wav_dir / f"{voice.replace(':', '_')}_{i}.wav"), c, RATE)
        hyps = [whisper.transcribe(c) for c in clips]
        refs = [normalize_text(t, "en") for t in lines]
        wer = float(jiwer.wer(refs, [normalize_text(h, "en") for h in hyps]))
        ents = [(e, h) for t, h in zip(lines, hyps, strict=True) for e in entities(t)]
        ents += [(k, h) for (_, k), h in zip(UTTERANCES, hyps[-len(UTTERANCES) :], strict=True)]
        ok = sum(squash(e) in squash(h) for e, h in ents)
        quality.append((voice, synth.params.voice_id, wer, f"{ok}/{len(ents)}", english_prob(lid, clips)))
        print(f"  {voice}: quality done (load avg {load()})", flush=True)
    ref = audio.get("agent")
    f0_ref = statistics.median(median_f0(c) for c in ref) if ref else float("nan")
    dur_ref = sum(len(c) for c in ref) if ref else 0
    mf_ref = [mean_mfcc(c) for c in ref] if ref else []
    out = []
    for voice, vid, wer, ent, en in quality:
        clips = audio[voice]
        f0 = statistics.median(median_f0(c) for c in clips)
        st = float(12 * np.log2(f0 / f0_ref)) if ref else float("nan")
        dur = sum(len(c) for c in clips) / dur_ref if ref else float("nan")
        if ref and voice != "agent":
            d, acc = separability(mf_ref, [mean_mfcc(c) for c in clips])
            sep = [d, f"{acc:.2f}"]
        else:
            sep = ["-", "-"]
        out.append([vid, wer, ent, en, f0, st, dur, *sep])
    table(
        f"Caller voice quality and distinctness ({len(lines)} caller lines; WER/entities: whisper "
        "tiny.en int8 beam 5; P(en): whisper base language ID)",
        ["voice", "WER", "entities", "P(en)", "F0 Hz", "dF0 st", "dur x agent", "MFCC d'", "LOO acc"],
        out,
    )
    print(f"\nload avg at end {load()}")


if __name__ == "__main__":
    main()
