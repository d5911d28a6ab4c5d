"""The opening measure (benchmarks/caller_opening.py): the reference caller's statement of why it
calls (its first line, and its first reply naming a request when that line names none) against the
goal caller's over the same agent turns."""

from __future__ import annotations

from types import ModuleType

from ..pipelines.caller_goal.conftest import make_scenario
from .bench_scripts import load


def _script() -> ModuleType:
    return load("caller_opening")


INTENTS = ["Transfer DEA registration to the new facility", "Reactivate suspended clinical privileges"]
INFO = {"employee_id": "EMP742412", "dea_number": "LS4934149", "facility_code": "GGQ-76P"}
TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I have a couple of provider HR items I need help with today."),
    ("agent", "Sure. What do you need help with?"),
    ("user", "First, I want to transfer my DEA registration. I also need my privileges reactivated."),
    ("agent", "Please give me your DEA number."),
    ("user", "L S four nine three four one four nine."),
    ("agent", "Done. Anything else?"),
]


def test_a_request_is_named_by_a_word_of_its_own_or_two_of_its_words() -> None:
    names = _script().Intents(
        ["Get a replacement laptop", "Get a new 27-inch monitor", "Get parking in North Lot"]
    )
    assert names.named("I need a new monitor.") == [1]
    assert names.named("I have a few things I need help with.") == []
    assert names.named("A laptop replacement, and parking.") == [0, 2]


def test_a_first_line_naming_no_request_opens_with_the_reply_that_names_one() -> None:
    sc = make_scenario(INFO, intents=INTENTS, trace=TRACE, start=TRACE[1][1])
    pair = _script().opening_pair("medical_hr", sc)
    assert pair.two_part
    assert pair.reference.intents == 2 and pair.reference.facts == []
    assert pair.reference.text.endswith("privileges reactivated.")
    assert pair.ours.text.startswith(TRACE[1][1]) and pair.ours.intents == 2


def test_a_first_line_naming_a_request_is_the_whole_opening() -> None:
    trace = [("agent", "Hi, how can I help?"), ("user", "Hi, I need to transfer my DEA registration."),
             ("agent", "Please give me your DEA number."), ("user", "L S four nine three four one four nine.")]  # fmt: skip
    sc = make_scenario(INFO, intents=INTENTS, trace=trace, start=trace[1][1])
    pair = _script().opening_pair("medical_hr", sc)
    assert not pair.two_part and pair.reference.text == pair.ours.text == trace[1][1]


def test_the_aggregate_sums_per_half_and_domain_with_precision_and_recall() -> None:
    mod = _script()
    ref = mod.Opening("r", intents=1, facts=["a"], words=10, sentences=1)
    ours = mod.Opening("o", intents=2, facts=["a", "b"], words=20, sentences=2)
    pair = mod.Pair("itsm", "x", ref, ours, two_part=True)
    agg = mod.aggregate([pair])
    key = f"{mod.half('itsm', 'x')}/all/two-part"
    t = agg[key]
    assert (t["n"], t["ref_intents"], t["ours_intents"], t["more_intents"], t["facts_both"]) == (
        1,
        1,
        2,
        1,
        1,
    )
    line = mod.row(t)
    assert "P 50%" in line and "R 100%" in line


def test_a_values_kind_is_the_benchs_own_reading() -> None:
    kind = _script().value_kind
    assert [kind(v) for v in ("GGQ-76P", "EMP742412", "5572", "FL2")] == ["code"] * 4
    assert [kind(v) for v in ("2026-08-10", "9:15 AM")] == ["date", "date"]
    assert [kind(v) for v in ("27", "$250", "27-inch", "14_inch")] == ["number"] * 4
    assert kind("additional practice site") == "text"
