"""The ending-model bench (benchmarks/caller_end_model.py): one example per reference agent turn up
to the reference's end, features from the goal caller's own state, the bench's ending rule for
premature / missed, and gates that only move where the first ending falls."""

from __future__ import annotations

from types import ModuleType

from ..pipelines.caller_goal.conftest import make_scenario
from .bench_scripts import load


def _script() -> ModuleType:
    return load("caller_end_model")


TRACE = [
    ("agent", "Hi, how can I help you today?"),
    ("user", "Hi, I need to change my flight."),
    ("agent", "May I have your confirmation number?"),
    ("user", "Z K three F F W."),
    ("agent", "Your flight is changed. Is there anything else I can help you with?"),
    ("user", "No, thanks. Goodbye."),
]


def test_examples_carry_the_callers_state_and_the_reference_end() -> None:
    em = _script()
    conv = em.run("airline", make_scenario({"confirmation_number": "ZK3FFW"}, trace=TRACE))
    assert (conv.first, conv.last, conv.by_agent) == (2, 2, False)  # the agent spoke first
    _greeting, asked, done = conv.turns
    assert asked.x["heard:request"] == 1.0 and not asked.rules_end and asked.open_
    assert done.x["heard:anything_else"] == 1.0 and done.rules_end and not done.open_
    X, y = em.design([conv], sorted(asked.x))
    assert X.shape == (3, len(asked.x)) and list(y) == [0.0, 0.0, 1.0]


def test_grading_and_gates_follow_the_benchs_ending_rule() -> None:
    em = _script()
    c = em.Conv("d", "1", first=2, last=3)
    assert em.grade(c, [False, True, False, False]) == (1, 0)  # before the first acceptable turn
    assert em.grade(c, [False, False, False, True]) == (0, 0)
    assert em.grade(c, [False, False, False, False]) == (0, 1)
    c.by_agent = True
    assert em.grade(c, [False, False, False, False]) == (0, 0)  # the agent handed the call over
    c.turns = [
        em.Turn({}, rules_end=r, open_=o)
        for r, o in [(False, True), (True, False), (False, False), (True, False)]
    ]
    g = em.gates(c, [0.0, 0.01, 0.95, 0.9], lo=0.05, hi=0.9)
    assert g["rules"] == [False, True, False, True]
    assert g["veto"] == [False, False, False, True]  # the rules' goodbye at p 0.01 vetoed
    assert g["trigger"] == [False, True, True, True]
    assert g["both"] == [False, False, True, True]


def test_the_logistic_model_learns_a_separating_feature() -> None:
    em = _script()
    convs = []
    for i in range(6):
        c = em.Conv("d", str(i), last=2)
        c.turns = [em.Turn({"a": float(j == 2), "b": float(i % 2)}, False, True) for j in range(3)]
        convs.append(c)
    model = em.Logit(["a", "b"]).fit(convs)
    assert model.p(convs[0].turns[2]) > 0.5 > model.p(convs[0].turns[0])
