"""The fast paths of scoring give what the plain ones give: the nearest-session index, the
run-wide EVA dataset, and metrics.json serialization."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from pathlib import Path

import pytest

from tests.eval.builders import small_conversation
from voxbench.eval.eva_dataset import EvaDataset
from voxbench.eval.eva_format import load_eva_context
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics_doc import json_bytes, metrics_bytes, metrics_json
from voxbench.eval.runner import score_context, score_run
from voxbench.eval.sessions import NearestIndex, Session, nearest
from voxbench.eval.types import REGISTRY, EvalConfig
from voxbench.records import atomic_write_bytes

CODE_METRICS = [n for n, s in REGISTRY.items() if s.default and not s.needs_judge]


def _sequential_sessions(rng: random.Random, n: int) -> list[Session]:
    """One speaker's sessions as pair_sessions makes them: one after another, with
    zero-length and touching sessions and repeated times to exercise the ties."""
    out: list[Session] = []
    t = rng.choice([0.0, 1.0])
    for _ in range(n):
        t += rng.choice([0.0, 0.0, 0.5, 1.0, rng.uniform(0, 3)])
        end = t + rng.choice([0.0, 0.5, 1.0, rng.uniform(0, 2)])
        out.append(Session("user", t, end))
        t = end
    return out


def test_nearest_index_agrees_with_the_linear_scan() -> None:
    rng = random.Random(7)
    for _ in range(400):
        ss = _sequential_sessions(rng, rng.randint(0, 9))
        index = NearestIndex(ss)
        assert index.ordered
        probes = [rng.uniform(-1, 25) for _ in range(20)]
        probes += [x for s in ss for x in (s.start, s.end, (s.start + s.end) / 2)]
        probes += [(a.end + b.start) / 2 for a, b in itertools.pairwise(ss)]  # equal distances
        for t in probes:
            assert index(t) is nearest(ss, t), (t, [(s.start, s.end) for s in ss])


def test_nearest_index_falls_back_on_unordered_sessions() -> None:
    ss = [Session("user", 5.0, 6.0), Session("user", 0.0, 1.0), Session("user", 2.0, 9.0)]
    index = NearestIndex(ss)
    assert not index.ordered
    for t in (-1.0, 0.5, 1.5, 3.0, 5.5, 7.0, 10.0):
        assert index(t) is nearest(ss, t)


@pytest.fixture
def sample(eva_data: Path) -> Path:
    return eva_data / "tests" / "artifacts" / "records" / "1.1.2"


def test_run_wide_dataset_gives_the_per_record_load(sample: Path, eva_data: Path, tmp_path: Path) -> None:
    run = tmp_path / "evarun"
    run.mkdir()
    shutil.copy(sample.parents[1] / "config.json", run / "config.json")
    for i in range(3):
        shutil.copytree(sample, run / "records" / "1.1.2" / f"trial_{i}")
    scored, _ = score_run(run, EvalConfig(), CODE_METRICS, eva_dataset=eva_data)
    for i, s in enumerate(scored):
        alone = load_eva_context(
            run / "records" / "1.1.2" / f"trial_{i}",
            record_id=f"1.1.2/trial_{i}",
            dataset_root=eva_data,
            domain="airline",
        )
        assert alone.expected_db is not None and alone.agent_tools
        want = score_context(alone, EvalConfig(), CODE_METRICS)
        assert s.metrics == want.metrics
        written = json.loads((run / "records" / "1.1.2" / f"trial_{i}" / "metrics.json").read_text())
        assert written == json.loads(json.dumps(metrics_json(want, alone), default=str))


def test_dataset_loads_a_domain_once_and_shares_it(sample: Path, eva_data: Path) -> None:
    ds = EvaDataset(eva_data)
    a = load_eva_context(sample, record_id="1.1.2/trial_0", domain="airline", dataset=ds)
    b = load_eva_context(sample, record_id="1.1.2/trial_1", domain="airline", dataset=ds)
    assert a.agent_tools is b.agent_tools and a.expected_db is b.expected_db
    assert ds.domain("airline") is ds.domain("airline")
    c = load_eva_context(sample, record_id="9.9.9", domain="airline", dataset=ds)
    assert c.expected_db is None and not c.agent_tools  # not in the dataset: left unset


def test_dataset_load_error_fails_every_record(sample: Path, tmp_path: Path) -> None:
    ds = EvaDataset(tmp_path / "no-such-dataset")
    for _ in range(2):
        with pytest.raises(Exception, match="not found"):
            load_eva_context(sample, domain="airline", dataset=ds)


def test_metrics_json_bytes_parse_as_the_stdlib_writes(tmp_path: Path) -> None:
    ctx = load_context(small_conversation().write(tmp_path / "r"))
    ctx.extra["odd"] = {
        "nan": float("nan"),
        "inf": float("inf"),
        "tiny": 5e-05,
        "tuple": (1, 2),
        "path": tmp_path,
    }
    doc = metrics_json(score_context(ctx, EvalConfig(), CODE_METRICS), ctx)
    stdlib = json.dumps(doc, indent=2, ensure_ascii=False, default=str)
    fast = json_bytes(doc).decode("utf-8")
    assert fast != stdlib  # 5e-05 is spelled 0.00005
    # parsed alike (compared as canonical text: NaN is not equal to itself)
    assert json.dumps(json.loads(fast), sort_keys=True) == json.dumps(json.loads(stdlib), sort_keys=True)
    view = json.dumps(json.loads(fast)["context"], sort_keys=True)
    assert view == json.dumps(json.loads(json.dumps(ctx.to_dict(), default=str)), sort_keys=True)


def test_metrics_bytes_are_the_dumped_documents_bytes(tmp_path: Path) -> None:
    """metrics.json serialized from the result models equals dumping them first."""
    ctx = load_context(small_conversation().write(tmp_path / "r"))
    ctx.extra["odd"] = {"nan": float("nan"), "tiny": 5e-05, "tuple": (1, 2), "path": tmp_path}
    for names in (CODE_METRICS, None):  # None: every default metric, offline judges too
        scored = score_context(ctx, EvalConfig(), names)
        next(iter(scored.metrics.values())).details["odd"] = {1: float("inf"), "set": (3,)}
        assert metrics_bytes(scored, ctx) == json_bytes(metrics_json(scored, ctx))


def test_non_durable_write_is_still_whole(tmp_path: Path) -> None:
    p = tmp_path / "d" / "metrics.json"
    for k in range(3):
        atomic_write_bytes(p, b"x" * (1000 * (3 - k)), durable=False)
    assert p.read_bytes() == b"x" * 1000
    assert [q.name for q in p.parent.iterdir()] == ["metrics.json"]


def test_workers_give_the_same_files_and_summary(tmp_path: Path) -> None:
    from tests.eval.builders import Conv

    run = tmp_path / "run"
    for i in range(12):
        c = Conv(scenario_id=f"s{i % 3}", trial=i // 3)
        c.agent(0.5, 2.0, "Hello! How can I help?", heard="Hello, how can I help?")
        c.user(2.5, 4.0 + i / 10, f"My code is Z K {i} F F W.")
        c.agent(
            5.0, 7.0, f"Booking ZK{i}FFW is on flight SK{i}.", heard=f"Booking ZK{i}FFW is on flight SK{i}."
        )
        c.write(run / "conversations" / f"r{i:02d}")
    (run / "conversations" / "r99").mkdir()
    (run / "conversations" / "r99" / "record.json").write_text("{broken")  # an unreadable record
    one, s1 = score_run(run, EvalConfig(), CODE_METRICS)
    files1 = {p: p.read_bytes() for p in sorted(run.rglob("metrics.json"))}
    two, s2 = score_run(run, EvalConfig(), CODE_METRICS, workers=2)
    files2 = {p: p.read_bytes() for p in sorted(run.rglob("metrics.json"))}
    assert one == two
    assert files1 == files2 and len(files1) == 13
    for s in (s1, s2):
        s["provenance"].pop("captured_at")
    assert s1 == s2
    assert s2["failures"]["infrastructure"]["count"] == 1


def test_per_turn_wer_from_the_corpus_alignment_is_jiwers() -> None:
    """stt_wer's per-turn WER, read from the corpus alignment, is jiwer.wer of each pair."""
    import jiwer

    from voxbench.eval.metrics.stt_wer import _sentence_wers

    rng = random.Random(11)
    vocab = ["a", "b", "c", "d", "e", "1", "2", "3"]
    for _ in range(1500):
        n = rng.randint(1, 5)
        refs = [" ".join(rng.choices(vocab, k=rng.randint(1, 10))) for _ in range(n)]
        hyps = [" ".join(rng.choices(vocab, k=rng.randint(0, 10))) for _ in range(n)]
        want = [round(jiwer.wer(r, h), 4) for r, h in zip(refs, hyps, strict=True)]
        assert _sentence_wers(jiwer.process_words(refs, hyps)) == want, (refs, hyps)


def test_settled_heap_freezes_while_scoring_and_hands_everything_back() -> None:
    import gc

    from voxbench.eval.heap import settled_heap

    assert gc.get_freeze_count() == 0
    kept = [[object()] for _ in range(50)]
    with settled_heap() as settle:
        settle()
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_freeze_count() == 0
    gc.freeze()  # someone else's freeze: left alone, settle() does nothing
    try:
        frozen = gc.get_freeze_count()
        with settled_heap() as settle:
            kept.append([object()])
            settle()
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_a_cycle_dropped_while_frozen_is_collected_after() -> None:
    import gc
    import weakref

    from voxbench.eval.heap import settled_heap

    class Node:
        other: object = None

    with settled_heap() as settle:
        a, b = Node(), Node()
        a.other, b.other = b, a
        ref = weakref.ref(a)
        settle()
        del a, b
        gc.collect()
        assert ref() is not None  # frozen: not collected yet
    gc.collect()
    assert ref() is None


def test_metrics_file_write_is_atomic_and_leaves_no_temp_file(tmp_path: Path) -> None:
    """The atomic write (durable or not): folder made, file replaced whole, mode as
    mkstemp's, no temp file left, and a failed write leaves the old file and no temp file."""
    import os
    import tempfile

    p = tmp_path / "r" / "metrics.json"
    for k in range(3):
        atomic_write_bytes(p, b"x" * (100_000 * (3 - k)), durable=k % 2 == 0)
    assert p.read_bytes() == b"x" * 100_000
    assert [q.name for q in p.parent.iterdir()] == ["metrics.json"]
    fd, made = tempfile.mkstemp(dir=tmp_path)
    os.close(fd)
    assert p.stat().st_mode & 0o777 == Path(made).stat().st_mode & 0o777
    with pytest.raises(TypeError):
        atomic_write_bytes(p, "not bytes", durable=False)  # type: ignore[arg-type]
    assert p.read_bytes() == b"x" * 100_000
    assert [q.name for q in p.parent.iterdir()] == ["metrics.json"]
    (tmp_path / "not_a_dir").write_text("x")
    with pytest.raises(OSError):
        atomic_write_bytes(tmp_path / "not_a_dir" / "metrics.json", b"{}", durable=False)


def test_metrics_file_writes_from_threads_stay_whole(tmp_path: Path) -> None:
    """Two writers of one file (threads of one process) never mix their bytes."""
    import threading

    p = tmp_path / "metrics.json"
    payloads = [bytes([65 + k]) * (50_000 + k) for k in range(4)]

    def writer(data: bytes) -> None:
        for _ in range(30):
            atomic_write_bytes(p, data, durable=False)

    threads = [threading.Thread(target=writer, args=(d,)) for d in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert p.read_bytes() in payloads
    assert [q.name for q in tmp_path.iterdir()] == ["metrics.json"]


def test_sub_metric_built_directly_is_the_validated_one() -> None:
    """`sub()` builds float/None sub-metrics without pydantic's validation: the instance
    equals the validated one field by field, in order, with the same fields set, and
    serializes and pickles alike; other values still go through validation."""
    import pickle

    from voxbench.eval.types import MetricResult, sub

    cases: list[object] = [0.0, -0.0, 0.5, 1e-05, float("inf"), float("nan"), None, 3, True, 7.25]
    for value in cases:
        for normalized in (True, False):
            got = sub("rate", value, normalized)  # type: ignore[arg-type]
            want = MetricResult(
                name="rate",
                score=value,
                normalized_score=value if normalized else None,
                skipped=value is None,
            )
            assert list(got.__dict__) == list(want.__dict__) == list(MetricResult.model_fields)
            assert repr(got) == repr(want)
            assert got.__pydantic_fields_set__ == want.__pydantic_fields_set__
            assert got.__pydantic_extra__ == want.__pydantic_extra__
            assert got.__pydantic_private__ == want.__pydantic_private__
            assert got.model_dump_json() == want.model_dump_json()
            assert json_bytes({"m": got}) == json_bytes({"m": want})
            assert repr(pickle.loads(pickle.dumps(got))) == repr(want)
            if value == value:  # nan is not equal to itself
                assert got == want
            got.version = "v1"  # assignment still tracked like a validated instance's
            assert "version" in got.__pydantic_fields_set__
    a, b = sub("x", 0.5), sub("x", 0.5)
    assert a.details is not b.details and a.sub_metrics is not b.sub_metrics  # fresh containers


def test_exact_mean_is_statistics_mean_bit_for_bit() -> None:
    """The exact mean (two-float sum when it holds, integers otherwise) is statistics.mean's
    float on metric-like values, wide exponent ranges, subnormals, signed zeros, overflowing
    sums, inf and nan."""
    import math
    import statistics

    from voxbench.eval.exact_mean import mean

    rng = random.Random(18)

    def values() -> list[float]:
        k = rng.choice([1, 2, 3, 10, 1000])
        kind = rng.randrange(7)
        if kind == 0:
            return [round(rng.random(), 4) for _ in range(k)]
        if kind == 1:
            return [rng.choice([0.0, 1.0, 0.5, -0.0]) for _ in range(k)]
        if kind == 2:
            return [rng.uniform(-1e6, 1e6) * 2.0 ** rng.randint(-60, 60) for _ in range(k)]
        if kind == 3:
            return [rng.choice([1e308, -1e308, 5e-324, 2.2e-308, 1.0, 1e-300]) for _ in range(k)]
        if kind == 4:
            return [math.ldexp(rng.random(), rng.randint(-1074, 1023)) for _ in range(k)]
        if kind == 5:
            return [rng.choice([math.inf, math.nan, 1.0, -math.inf]) for _ in range(k)]
        return [float(rng.randint(0, 100)) / rng.choice([3, 7, 10, 1e3]) for _ in range(k)]

    for _ in range(6000):
        xs = values()
        want = statistics.mean(xs)
        got = mean(xs)
        assert repr(got) == repr(want) or (math.isnan(got) and math.isnan(want)), xs[:5]
    assert mean([1, 2]) == statistics.mean([1, 2]) and mean([True, 0.5]) == statistics.mean([True, 0.5])


def test_span_index_agrees_with_the_scans() -> None:
    """SpanIndex answers as `[o for o in ss if o.spans(t)]` and the start-inside scan, for
    sessions one after another (ties, zero-length, touching) and for unordered lists."""
    from voxbench.eval.sessions import SpanIndex

    rng = random.Random(18)
    for k in range(600):
        ss = _sequential_sessions(rng, rng.randint(0, 9))
        if k % 3 == 0 and len(ss) > 1:
            rng.shuffle(ss)  # unordered: the scans
        index = SpanIndex(ss)
        times = [rng.uniform(-1, 25) for _ in range(15)]
        times += [x for s in ss for x in (s.start, s.end, (s.start + s.end) / 2)]
        for t in times:
            assert index.containing(t) == [o for o in ss if o.spans(t)], (t, [(s.start, s.end) for s in ss])
        for lo, hi in itertools.product(times[:12], repeat=2):
            assert index.starting_inside(lo, hi) == [o for o in ss if lo < o.start < hi]
    overlapping = [Session("user", 0.0, 5.0), Session("user", 1.0, 3.0)]
    assert not SpanIndex(overlapping).ordered
    assert SpanIndex(overlapping).containing(2.0) == overlapping
