"""How often would the offline user_speech_fidelity fail a *clean* caller turn because of the
post-call recogniser alone? Each caller line of the reference conversations is spoken by the
caller's default voice (Piper), transcribed by the post-call STT (faster-whisper tiny.en, one
thread, as `transcribe_caller_record` does) and rated by `rate_turn` against the line itself.
A turn rated 1 here is a false alarm the gate would act on (the voice said the line).

    PYTHONPATH=src .venv/bin/python benchmarks/caller_speech_stt.py [--dataset DIR] [--domains a,b] [--limit N] [--model base]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from voxbench.eval.gateset.conversation import Line, from_scenario
from voxbench.eval.offline.caller_speech import rate_turn
from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber
from voxbench.processors.perturbations import voices
from voxbench.scenarios.loader import load_dataset


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", default=None)
    ap.add_argument("--domains", default=None)
    ap.add_argument("--limit", type=int, default=10, help="scenarios per domain")
    ap.add_argument("--model", default="tiny.en", help="post-call whisper: tiny.en | base | a CT2 dir")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    ds = load_dataset(args.dataset, args.domains.split(",") if args.domains else None)
    stt = WhisperTranscriber(WhisperOptions(model=args.model, cpu_threads=1))
    ratings: Counter[int] = Counter()
    calls_with_1 = calls = 0
    bad: list[dict[str, str]] = []
    for dd in ds.domains.values():
        for sid in sorted(dd.scenarios)[: args.limit]:
            ref = from_scenario(dd, sid)
            if ref is None:
                continue
            calls += 1
            any1 = False
            for s in ref.steps:
                if not (isinstance(s, Line) and s.who == "user"):
                    continue
                audio, sr = voices.piper_synthesize(s.text)
                said = stt.transcribe(np.asarray(audio, dtype=np.float32), sr).strip()
                r, info = rate_turn(s.text, said)
                ratings[r] += 1
                if r == 1:
                    any1 = True
                    bad.append(
                        {
                            "scenario": f"{dd.domain}/{sid}",
                            "meant": s.text,
                            "said": said,
                            **{k: str(v) for k, v in info.items()},
                        }
                    )
            calls_with_1 += any1
    n = sum(ratings.values())
    result = {
        "model": args.model,
        "turns": n,
        "ratings": dict(sorted(ratings.items())),
        "turns_rated_1": round(ratings[1] / n, 4) if n else None,
        "calls": calls,
        "calls_failed_by_stt_alone": round(calls_with_1 / calls, 4) if calls else None,
        "examples_rated_1": bad[:20],
    }
    text = json.dumps(result, indent=2, ensure_ascii=False)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
