"""The said-again findings of benchmarks/progression_said.py (measured, not shipped): values the
agent tells again unasked are a redundant statement; a read-back before an action, an answer to
the caller's question and the final recap are not; the caller saying it already gave something
is information loss."""

from __future__ import annotations

from tests.bench.bench_scripts import load
from tests.eval.test_offline_judges import ctx_of

TOLD = "Your flight SK210 leaves at two forty five PM and your seat is 12A on June tenth."
LATER = "Got it. Again, flight SK210 leaves at two forty five PM and you are in seat 12A."


def _features(lines: list[tuple[str, str]]) -> list[str]:
    return [f["feature"] for f in load("progression_said").said_findings(ctx_of(lines))]


def test_values_told_again_unasked_are_a_redundant_statement() -> None:
    lines = [("assistant", "Hi, how can I help?"), ("user", "Check my booking please."),
             ("assistant", TOLD), ("user", "Okay, one checked bag."),
             ("assistant", LATER), ("user", "Thanks."), ("assistant", "Goodbye.")]  # fmt: skip
    assert _features(lines) == ["retold_values"]


def test_an_answer_a_read_back_and_the_final_recap_are_not() -> None:
    asked = [("assistant", "Hi, how can I help?"), ("user", "Check my booking please."),
             ("assistant", TOLD), ("user", "When does it leave again?"),
             ("assistant", LATER), ("user", "Thanks."), ("assistant", "Goodbye.")]  # fmt: skip
    assert _features(asked) == []
    readback = [("assistant", "Hi, how can I help?"), ("user", "Check my booking please."),
                ("assistant", TOLD), ("user", "Okay, one checked bag."),
                ("assistant", LATER + " Is that correct?"), ("user", "Yes."), ("assistant", "Goodbye.")]  # fmt: skip
    assert _features(readback) == []
    recap = [("assistant", "Hi, how can I help?"), ("user", "Check my booking please."),
             ("assistant", TOLD), ("user", "Okay, thanks, goodbye."), ("assistant", LATER)]  # fmt: skip
    assert _features(recap) == []


def test_the_caller_saying_it_already_told_is_information_loss() -> None:
    lines = [("assistant", "Hi, how can I help?"), ("user", "My code is QX7K2M."),
             ("assistant", "What is your confirmation code?"), ("user", "I just told you, QX7K2M."),
             ("assistant", "Sorry. Just to repeat, I have it now.")]  # fmt: skip
    assert _features(lines) == ["restatements", "caller_already_said"]
