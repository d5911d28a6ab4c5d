"""What each perturbation condition does to the local STT: WER and key-entity accuracy.

The built-in scenarios' caller lines (bb.1-bb.3, reference traces) are spoken by the
simulator's default caller voice (the condition's accent voice when it has one), perturbed with the
condition's streaming chain exactly as a live call would (with 0.6 s of lead-in and tail, so
noise is already playing when speech starts), and transcribed by faster-whisper tiny.en
(packaged weights, int8, beam 5). Noisy conditions are averaged over ``--seeds`` seeds.

* WER: corpus WER over all lines, eval's text normaliser (``voxbench.eval.normalize``).
* key-entity accuracy: share of the lines' key entities heard exactly: spelled booking codes
  ("Q X 7 T 4 M" -> qx7t4m), names and places (capitalised words not starting a sentence),
  seat / bag words; compared on lowercase alphanumerics with number words as digits.

    .venv/bin/python benchmarks/perturbation_stt.py [--conditions clean,noise,...] [--seeds 3]
"""

from __future__ import annotations

import argparse
import re
import time
from typing import Any

import jiwer
import numpy as np

DEFAULT_CONDITIONS = "clean,noise,accent,accent+noise,telephony,noise_heavy,accent+telephony,bad_line"
NUM = {
    w: str(i)
    for i, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])
}
NOT_NAMES = {
    "I",
    "I'd",
    "I'm",
    "Hi",
    "Hello",
    "It's",
    "No",
    "Yes",
    "Just",
    "Great",
    "Thanks",
    "Bye",
    "Goodbye",
}
KEY_WORDS = ("window", "checked bag", "one")


def user_lines() -> list[tuple[str, str]]:
    from voxbench.pipelines.caller.trace_simulator import reference_user_lines
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.scenarios.loader import load_dataset

    out = []
    for dom, dd in load_dataset().domains.items():
        for sid in dd.scenarios:
            c = CallScenario.from_domain(dd, sid)
            out += [(f"{dom}/{sid}", line) for line in reference_user_lines(c.scenario, c.resolver)]
    return out


def entities(line: str) -> list[str]:
    ents = [m.replace(" ", "") for m in re.findall(r"\b(?:[A-Z0-9] ){3,}[A-Z0-9]\b", line)]
    words = re.findall(r"[A-Za-z']+", line)
    for i, w in enumerate(words):
        if i > 0 and w[0].isupper() and len(w) > 1 and w not in NOT_NAMES and not w.isupper():
            ents.append(w)
    low = line.lower()
    ents += [k for k in KEY_WORDS if re.search(rf"\b{k}\b", low)]
    return ents


def squash(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "".join(NUM.get(w, w) for w in words)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--conditions", default=DEFAULT_CONDITIONS)
    ap.add_argument("--seeds", type=int, default=2, help="seeds per condition with random ops")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    from faster_whisper import WhisperModel

    from voxbench.eval.normalize import normalize_text
    from voxbench.pipelines.caller.side import tts_config_for_voice
    from voxbench.pipelines.local_stack import USER_VOICE
    from voxbench.pipelines.services.stt import resolve_whisper_model
    from voxbench.pipelines.services.tts import make_synth
    from voxbench.processors.perturbations import apply_condition, resolve_condition

    sr = 16000
    lines = user_lines()
    model = WhisperModel(
        str(resolve_whisper_model("tiny.en")), device="cpu", compute_type="int8", cpu_threads=args.threads
    )
    synths: dict[str, Any] = {}
    speech_cache: dict[tuple[str, str], np.ndarray] = {}

    def speak(voice_id: str | None, text: str) -> np.ndarray:
        key = (voice_id or "", text)
        if key not in speech_cache:
            cfg = tts_config_for_voice(voice_id, USER_VOICE)
            if cfg.voice_id not in synths:
                synths[cfg.voice_id] = make_synth(cfg.voice_params())
            pcm = np.frombuffer(synths[cfg.voice_id].synthesize(text, sr), dtype="<i2")
            speech_cache[key] = pcm.astype(np.float32) / 32768.0
        return speech_cache[key]

    def transcribe(audio: np.ndarray) -> str:
        segs, _ = model.transcribe(audio.astype(np.float32), language="en", beam_size=5, vad_filter=False)
        return " ".join(s.text.strip() for s in segs).strip()

    print(f"{len(lines)} caller lines from {len({s for s, _ in lines})} scenarios; whisper tiny.en int8")
    head = f"{'condition':<18} {'voice':<16} {'WER':>6} {'dWER':>6} {'entity acc':>10} {'d':>6} {'SNR dB':>7} {'seeds':>5} {'s':>5}"
    print(head)
    print("-" * len(head))
    base: tuple[float, float] | None = None
    for name in [c.strip() for c in args.conditions.split(",") if c.strip()]:
        cond = resolve_condition(name)
        t0 = time.monotonic()
        random_ops = any(op.kind in ("noise", "packet_loss") for op in cond.ops)
        seeds = range(args.seeds if random_ops else 1)
        refs: list[str] = []
        hyps: list[str] = []
        ent_ok = ent_n = 0
        snrs: list[float] = []
        for k in seeds:
            for i, (sid, line) in enumerate(lines):
                pad = np.zeros(int(0.6 * sr), dtype=np.float32)
                x = np.concatenate([pad, speak(cond.voice_id, line), pad])
                y, summ = apply_condition(x, sr, cond, cond.seed(f"{sid}#{i}", k))
                for st in summ["stages"]:
                    if st["kind"] == "noise" and st["achieved_snr_db"] is not None:
                        snrs.append(st["achieved_snr_db"])
                hyp = transcribe(y)
                refs.append(normalize_text(line, "en"))
                hyps.append(normalize_text(hyp, "en"))
                heard = squash(hyp)
                for e in entities(line):
                    ent_n += 1
                    ent_ok += squash(e) in heard
        wer = float(jiwer.wer(refs, hyps))
        acc = ent_ok / ent_n if ent_n else float("nan")
        if base is None:
            base = (wer, acc)
        snr = f"{np.mean(snrs):7.1f}" if snrs else f"{'-':>7}"
        voice = (cond.voice_id or "user").removeprefix("piper:")
        print(
            f"{name:<18} {voice:<16} {wer:6.3f} {wer - base[0]:+6.3f} {acc:10.3f} {acc - base[1]:+6.3f} "
            f"{snr} {len(seeds):>5} {time.monotonic() - t0:5.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
