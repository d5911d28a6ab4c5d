"""Does the goal caller hold when it answers what its own recogniser heard of the agent's voice?

    PYTHONPATH=src nice -n 5 .venv/bin/python benchmarks/caller_heard_stt.py --data /work/shared/eva-data \
        --cache /tmp/heardstt/heard.json [--half dev|test] [--rows] [--domain D] [--limit N] [--out report.json]

Live, the goal caller replies to faster-whisper tiny.en's transcript of the agent's audio, not to
the agent's text: 'the new role code' can reach it as 'the new row code'. ``caller_asr_forms.py``
models a recogniser with regex rewrites and has no real recognition errors; here each reference
agent turn of the chosen half (the fixed split, :func:`voxbench.bench.weak_item.half`) is spoken
by the offline default agent's voice (``cascade-local``'s TTS: Piper joe, the ``agent`` preset,
:func:`voxbench.processors.perturbations.voices.piper_synthesize`) and transcribed by the caller's
recogniser as the live caller runs it (:class:`WhisperTranscriber` with the default
:class:`WhisperOptions`: tiny.en, int8, beam 5; one thread here). The whole turn is one segment
(live, VAD pauses may cut it into several). The heard texts are cached in ``--cache`` (a JSON file
outside the repo, keyed by the written text, saved as it grows), so a rerun re-measures the caller
in seconds. A cache file holds one half: the half it was filled for is stored in it, a run of the
other half refuses it (a test-half run needs its own ``--cache`` file, so dev work never reads a
heard test text) and ``--half both`` is refused with a cache. Cost, measured: 2.2 s per turn (Piper + tiny.en) with the two cores loaded ~2.5, and
~8 s per turn at load ~11: the dev half's 931 turns (828 distinct texts) are ~30 min at the first
rate, over the 20-minute budget, not yet measured on an idle core; ``--limit N`` (the first N
scenarios of each domain) keeps a pass short, and a cached rerun takes ~1 min.

The caller hears each turn as written (:func:`turn_variants.forked_replies`), and a copy of it in
the state the written turns left it in hears the recogniser's text instead. Per domain and half:

* **not_heard**: turns left out by ``--cached-only`` (not in the cache: a partial pass);
  **turns**: turns heard; **heard_differs**: the heard text is not the written one (any character);
  **words_differ**: it differs after lower-casing and dropping punctuation;
* **changed**: the reply's act (kind, yes/no/option choice, whether it ends the call) or the facts
  it discloses differ; **withheld**: facts the written reply gave and the heard reply did not;
* **false_corrections**: the heard reply corrects (``caller_asr_forms.corrects``) where the written
  reply did not.

``--rows`` prints the changed rows of DEV scenarios only; ``--half test`` is read as the aggregate
table only.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import turn_variants
from caller_asr_forms import corrects

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.records.io import atomic_write_json

VOICE = "piper:joe (agent preset)"
MODEL = "tiny.en"
HALVES = ("dev", "test")
COLS = ("not_heard", "turns", "heard_differs", "words_differ", "changed", "withheld", "false_corrections")


class HeardCache:
    """Written agent text -> what the caller's recogniser made of the agent voice saying it, for
    the turns of ONE half of the fixed split.

    The speech models load on the first text not yet cached; the file is rewritten every
    ``save_every`` new texts (and at the end), so an interrupted pass keeps what it heard. The file
    stores its half and is refused by a run of another half (or of both, or a file with no half):
    texts are keyed by their words alone, so a mixed file could not say which half a text came
    from, and a dev run must never read what a test run heard."""

    def __init__(self, path: Path, half: str, save_every: int = 20, cached_only: bool = False) -> None:
        if half not in HALVES:
            raise SystemExit(f"a heard cache holds one half ({' or '.join(HALVES)}), not {half!r}")
        self.path, self.half, self.save_every, self.new = path, half, save_every, 0
        self.cached_only = cached_only
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        if data and (data.get("voice"), data.get("model")) != (VOICE, MODEL):
            raise SystemExit(f"{path} holds texts heard with {data.get('voice')} / {data.get('model')}")
        if data and data.get("half") != half:
            raise SystemExit(
                f"{path} holds the {data.get('half')} half's texts; a {half} run needs its own cache"
            )
        self.heard: dict[str, str] = data.get("heard", {})
        self._stt: Any = None
        self.secs = 0.0

    def __call__(self, text: str) -> str | None:
        """The heard text (None when not cached and ``cached_only``)."""
        if text not in self.heard and self.cached_only:
            return None
        if text not in self.heard:
            t0 = time.perf_counter()
            self.heard[text] = self._transcribe(text)
            self.secs += time.perf_counter() - t0
            self.new += 1
            if self.new % self.save_every == 0:
                self.save()
        return self.heard[text]

    def _transcribe(self, text: str) -> str:
        import numpy as np

        from voxbench.pipelines.services.stt import WhisperOptions, WhisperTranscriber
        from voxbench.processors.perturbations import voices

        if self._stt is None:
            self._stt = WhisperTranscriber(WhisperOptions(model=MODEL, cpu_threads=1))
        audio, sr = voices.piper_synthesize(text)
        return str(self._stt.transcribe(np.asarray(audio, dtype=np.float32), sr)).strip()

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"voice": VOICE, "model": MODEL, "half": self.half, "heard": self.heard}
        atomic_write_json(self.path, data)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _act(act: CallerAct) -> tuple[Any, ...]:
    return act.kind, act.choice, act.ends_call, tuple(sorted(act.facts))


def scenario_runner(cache: HeardCache) -> turn_variants.RunScenario:
    """``run_scenario`` for :func:`turn_variants.run`: counts keyed by the scenario's domain."""

    def run_scenario(
        domain: str, sc: Any, _names: list[str], rows: list[dict[str, Any]]
    ) -> dict[str, dict[str, int]]:
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        c = counts[domain]

        def variants(_i: int, agent: str, _ref: str) -> dict[str, str]:
            heard = cache(agent)
            if heard is None:
                c["not_heard"] += 1
                return {}
            c["turns"] += 1
            c["heard_differs"] += heard != agent
            c["words_differ"] += _words(heard) != _words(agent)
            return {"heard": heard} if heard != agent else {}

        for f in turn_variants.forked_replies(domain, sc, variants):
            if "heard" not in f.heard:
                continue
            v, heard = f.heard["heard"]
            written = f.written
            changed = _act(heard) != _act(written)
            withheld = sorted(set(written.facts) - set(heard.facts))
            false = corrects(heard) and not corrects(written)
            c["changed"] += changed
            c["withheld"] += len(withheld)
            c["false_corrections"] += false
            if changed or false:
                rows.append({"domain": domain, "scenario": sc.id, "turn": f.turn, "agent": f.agent, "heard": v,
                             "written_reply": written.text, "written_act": list(_act(written)),
                             "heard_reply": heard.text, "heard_act": list(_act(heard)), "heard_rules": heard.rules,
                             "withheld": withheld, "false_correction": false})  # fmt: skip
        return counts

    return run_scenario


def main() -> int:
    ap = turn_variants.parser(__doc__.split("\n")[0], "col", "cols")
    ap.add_argument("--cache", type=Path, required=True, help="JSON file of heard texts (outside the repo)")
    ap.add_argument("--cached-only", action="store_true", help="skip turns not in the cache (not_heard)")
    ap.set_defaults(half="dev")
    args = ap.parse_args()
    cache = HeardCache(args.cache, args.half, cached_only=args.cached_only)
    t0 = time.perf_counter()
    try:
        totals, dev_rows = turn_variants.run(args, [], scenario_runner(cache))
    finally:
        cache.save()
    domains = sorted({name for (_h, name) in totals})
    for h in ("dev", "test"):
        for k in COLS:
            totals[(h, "all")][k] = sum(totals.get((h, d), {}).get(k, 0) for d in domains)
    turn_variants.report(args, totals, dev_rows, [*domains, "all"], tuple(args.cols or COLS), "domain")
    print(f"# {cache.new} texts newly heard in {cache.secs:.0f} s; {time.perf_counter() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
