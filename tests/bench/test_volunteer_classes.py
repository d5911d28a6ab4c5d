"""The volunteering census (benchmarks/caller_volunteer_classes.py): each goal fact an asking turn
neither says nor names is a chance, in the first class it fits, labelled by the reference's reply
and the goal caller's."""

from __future__ import annotations

from types import ModuleType

from ..pipelines.caller_goal.conftest import make_scenario
from .bench_scripts import load


def _script() -> ModuleType:
    return load("caller_volunteer_classes")


TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need a license extension."),
    ("agent", "Please give me your state license number."),
    ("user", "It's O H dash one two three. I need a provisional extension for thirty days."),
    ("agent", "What time works for your review on June 3?"),
    ("user", "Ten AM."),
    ("agent", "You're all set."),
]
INFO = {
    "state_license_number": "OH-123",
    "extension_type": "provisional",
    "extension_days": 30,
    "preferred_date": "2026-06-03",
    "preferred_time": "10:00",
}
TREE = [
    "If asked for the license details, provide your state license number, say provisional, and specify 30 days."
]


def test_chances_are_classed_and_labelled_by_the_reference() -> None:
    sc = make_scenario(INFO, negotiation=TREE, trace=TRACE, start="Hi, I need a license extension.")
    out = _script().chances("medical_hr", sc, rows=False)
    bundled = [(ref, ours) for c, ref, ours in out if c == "tree_bundle"]
    assert bundled == [
        (True, True),
        (True, True),
    ]  # provisional, 30 days: the tree gives them with the number, and so does the goal caller
    assert {c for c, _, _ in out} <= set(_script().CLASSES)
    assert not any(ref for c, ref, _ in out if c != "tree_bundle")


def test_a_pair_differs_by_one_pair_word() -> None:
    s = _script()
    assert s._pair_of("pto_start_date", "pto_end_date")
    assert not s._pair_of("pto_start_date", "leave_end_date")
