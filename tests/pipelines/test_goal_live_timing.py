"""When the live goal caller answers an agent turn: at once, after a statement's pause, or after a
fragment's longer one (agent lines as whisper heard them in live calls with the local agent)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal_live import goal_caller_for, is_fragment, reply_delay
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.scenarios import load_dataset


@pytest.fixture
def caller():  # type: ignore[no-untyped-def]
    dd = load_dataset(None, ["airline"]).domains["airline"]
    return goal_caller_for(CallScenario.from_domain(dd, "bb.2"), seed=0)


def test_greeting_waits_for_its_question(caller) -> None:  # type: ignore[no-untyped-def]
    assert reply_delay(caller, "Hello.", 5.0, 12.0) == 5.0
    assert reply_delay(caller, "Hello. How can I help you today?", 5.0, 12.0) == 0.0


@pytest.mark.parametrize(
    ("text", "delay"),
    [
        ("What is your last name?", 0.0),
        ("Can you please provide me with the six character confirmation code", 0.0),  # a request
        ("Let's look up your booking.", 5.0),  # a statement the agent goes on from
        ("One moment please.", 5.0),  # a hold
        ("information.", 12.0),  # a piece of a sentence
        ("I'm sorry.", 12.0),
        ("Sure. with that. What is your last name?", 0.0),
        ("Please.", 12.0),  # the tail of a request already answered (live bb.3)
    ],
)
def test_reply_delay_after_opening(caller, text: str, delay: float) -> None:  # type: ignore[no-untyped-def]
    caller.open()
    assert reply_delay(caller, text, 5.0, 12.0) == delay


def test_fragments() -> None:
    assert is_fragment("with that.") and is_fragment("Sure.") and not is_fragment("Let's look it up.")


def test_please_wait_a_moment_is_a_hold(caller) -> None:  # type: ignore[no-untyped-def]
    """Live toy call: 'Please wait a moment.' was read as a question ('I'm afraid I don't have that.')."""
    caller.open()
    act = caller.respond("Please wait a moment.")
    assert act.kind == "wait" and act.text == ""
