"""When the live goal caller answers an agent turn: at once, after a statement's pause, or after a
fragment's longer one (agent lines as whisper heard them in live calls with the local agent)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal_live import goal_caller_for, is_fragment, reply_delay
from voxbench.pipelines.config import GoalSimConfig
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
        # "anything else?" said as a statement: the agent may go on with a question (live bb.2)
        ("I understand. If you have any other questions, feel free to ask.", 5.0),
        ("Is there anything else I can help you with?", 0.0),
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


def test_a_request_restated_before_the_answer_is_said_is_not_answered_twice(caller) -> None:  # type: ignore[no-untyped-def]
    """Live bb.1 (make run, 2026-12-04): the agent's 'Please provide ...' ended a turn at a pause,
    the caller answered, and the agent's next sentence asked the same ('Could you tell me ...?')
    before the answer had been said: the caller said its code and name twice in a row. Asked
    again after its line was said, it answers again (a real re-ask)."""
    from pipecat.frames.frames import BotStoppedSpeakingFrame, LLMContextUserTurnFrame, TTSSpeakFrame
    from pipecat.tests.utils import SleepFrame, run_test

    from voxbench.pipelines.caller.goal_live import GoalDriver
    from voxbench.transports.virtual_loop import run_virtual

    def turn(text: str) -> LLMContextUserTurnFrame:
        return LLMContextUserTurnFrame(text=text, timestamp="")

    stats: dict[str, int] = {}
    waits = GoalSimConfig(no_greeting_s=60.0, statement_wait_s=5.0, fragment_wait_s=0.0)
    driver = GoalDriver(caller, lambda act: None, waits, stats=stats)
    ask = "Could you tell me the confirmation number and last name, please?"
    said_line = [SleepFrame(sleep=0.5), BotStoppedSpeakingFrame(), SleepFrame(sleep=0.5)]  # (a system
    # frame overtakes queued data frames: the sleeps keep the order a call has, on virtual time)
    frames = [
        turn("Hello! How can I help you today?"),
        *said_line,
        turn("Please provide the confirmation number and the last name."),
        turn(ask),  # the same request, while the answer is still on its way out
        *said_line,
        turn(ask),  # asked again once the answer was said
    ]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))
    said = [f.text for f in down if isinstance(f, TTSSpeakFrame)]
    assert len(said) == 3 and stats["overlapped_asks"] == 1
    assert "four R eight" not in said[0] and "four R eight" in said[1] and "four R eight" in said[2]


def _bag_caller():  # type: ignore[no-untyped-def]
    dd = load_dataset(None, ["airline"]).domains["airline"]
    c = goal_caller_for(CallScenario.from_domain(dd, "bb.1"), seed=0)
    c.open()
    c.respond("Please provide the confirmation number and the last name. How many bags?")
    return c


def test_a_statement_that_completes_every_request_waits_only_done_wait_s() -> None:
    """Live bb.1 (make run 2026-12-04, statement_wait_s 8): 'The bag has been added to the booking.
    Thank you for your patience.' got 'Perfect, thanks. Bye.' 8 s later (90.4 -> 98.4 s)."""
    c = _bag_caller()
    done = "The bag has been added to the booking. Thank you for your patience."
    assert reply_delay(c, done, 8.0, 12.0, 2.0) == 2.0
    assert reply_delay(c, done, 8.0, 12.0) == 8.0  # without the field: as before
    assert reply_delay(c, done, 1.0, 12.0, 2.0) == 1.0  # never longer than a statement's wait
    assert c.done == [False] and c.acts[-1].kind == "answer"  # asking changed nothing
    act = c.respond(done)
    assert act.ends_call and act.rule == "resolution_end"


@pytest.mark.parametrize(
    "text",
    [
        "Okay. I'll look up the booking and add the bag. Please hold on a moment.",  # announced, not done
        "I found your booking. You have a flight from Denver to Seattle on May 6.",  # no completion
        "I'm sorry, the bag could not be added to the booking.",  # a refusal
    ],
)
def test_a_statement_that_completes_nothing_waits_statement_wait_s(text: str) -> None:
    assert reply_delay(_bag_caller(), text, 8.0, 12.0, 2.0) == 8.0


def test_a_completion_with_a_request_left_waits_statement_wait_s() -> None:
    from tests.pipelines.caller_goal.conftest import make_scenario
    from voxbench.pipelines.caller.goal.policy import GoalCaller

    c = GoalCaller(
        make_scenario(
            {"last_name": "Murphy"}, intents=["Add a checked bag.", "Change my seat to a window seat."]
        )
    )
    c.open()
    assert reply_delay(c, "The checked bag has been added to your flight.", 8.0, 12.0, 2.0) == 8.0


def test_a_request_cut_in_two_turns_is_answered_once(caller) -> None:  # type: ignore[no-untyped-def]
    """An agent line split across two transcript turns ('... First, I need your' | 'confirmation
    number and last name.'): the cut request waits for its rest, and the two are answered as one
    line with the facts, not 'Sorry, I missed the end of that.' and then a second line."""
    from pipecat.frames.frames import LLMContextUserTurnFrame, TTSSpeakFrame
    from pipecat.tests.utils import SleepFrame, run_test

    from voxbench.pipelines.caller.goal_live import GoalDriver
    from voxbench.transports.virtual_loop import run_virtual

    caller.open()
    assert reply_delay(caller, "I can help with that. First, I need your", 5.0, 12.0) == 12.0
    waits = GoalSimConfig(no_greeting_s=60.0, statement_wait_s=5.0, fragment_wait_s=12.0)
    driver = GoalDriver(caller, lambda act: None, waits)
    frames = [
        LLMContextUserTurnFrame(text="I can help with that. First, I need your", timestamp=""),
        SleepFrame(sleep=1.0),
        LLMContextUserTurnFrame(text="confirmation number and last name.", timestamp=""),
        SleepFrame(sleep=1.0),
    ]
    down, _ = run_virtual(run_test(driver, frames_to_send=frames))
    said = [f.text for f in down if isinstance(f, TTSSpeakFrame)]
    assert len(said) == 1 and "four R eight" in said[0], said
