"""The stalls-per-agent-turn candidate of benchmarks/progression_rate.py (measured, not
shipped: docs/judges.md): what it divides by, and that its fitted rating is monotone."""

from __future__ import annotations

from tests.bench.bench_scripts import load
from tests.eval.test_offline_judges import ctx_of

LINES = [("assistant", "Hi, how can I help?"), ("user", "Check booking QX7K2M, last name Lee."),
         ("assistant", "I found your booking on flight twelve."), ("user", "Is it on time?"),
         ("assistant", "Yes, it is on time."), ("user", "Thanks, bye.")]  # fmt: skip
CALL: tuple[str, dict[str, object]] = (
    "get_reservation",
    {"confirmation_number": "QX7K2M", "last_name": "Lee"},
)


def test_agent_turns_count_turns_the_agent_spoke_in() -> None:
    bench = load("progression_rate")
    ctx = ctx_of(LINES, ((1, *CALL), (2, *CALL)))
    assert bench.agent_turns(ctx) == 3
    row = bench.row_of("hand", ctx, 2, ["repetitive_tool_calls"])
    assert row["f"]["identical_calls"] == 1 and row["turns"] == 3
    assert row["modes"] == {"unnecessary_tool_calls"} and "unnecessary_tool_calls" in row["dims"]
    assert bench.VARIANTS[bench.CANDIDATE](row) == {"stalls_per_turn": sum(row["f"].values()) / 3}


def test_the_fitted_candidate_never_rates_more_stalls_higher() -> None:
    bench = load("progression_rate")
    feats = bench.VARIANTS[bench.CANDIDATE]
    rows = [{"id": str(i), "h": h, "turns": 4, "f": {"identical_calls": float(n)}}
            for i, (n, h) in enumerate([(0, 3), (0, 3), (0, 3), (1, 2), (1, 3), (2, 2), (3, 1), (4, 1)])]  # fmt: skip
    model = bench.fit(rows, feats)
    ratings = [model.rate(feats({"turns": 4, "f": {"identical_calls": float(n)}})) for n in range(6)]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] == 3 and ratings[-1] == 1
