"""Issue 36's two live cases, as real records through the orchestrator's gate: a caller that
leaves an agent which claimed a completion it never wrote, or which went silent, is valid
(the agent's failure is scored, not regenerated). A caller that walks away while the agent is
asking it for something is still invalid."""

from __future__ import annotations

import copy
from pathlib import Path

from tests.eval.builders import INITIAL_DB, Conv
from voxbench.orchestrator.config import JudgesConfig
from voxbench.orchestrator.eval_bridge import EvalGate

GREETING = "Hello! Welcome to SkyWay. How can I help you today?"


def _lookup() -> Conv:
    return (
        Conv()
        .agent(0.5, 2.5, GREETING)
        .user(3.0, 6.0, "Hi, I'd like to add a checked bag to my booking, under my last name.")
        .tool(
            6.5,
            "get_reservation",
            {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez"},
            {"status": "success", "reservation": {"confirmation_number": "ZK3FFW"}},
        )
    )


def test_completion_claimed_without_the_write_is_valid(tmp_path: Path) -> None:
    """bb.1: no write tool call (final database = initial), the agent claims it added the bag."""
    conv = (
        _lookup()
        .agent(
            7.0,
            12.0,
            "Great! I've added a bag to your booking. The new fare is $189.00. Do you have any other questions?",
        )
        .user(13.0, 15.0, "No, that's all. Thanks, goodbye.")
    )
    rec = conv.write(tmp_path / "r", final_db=copy.deepcopy(INITIAL_DB))
    res = EvalGate(JudgesConfig())(rec)
    assert res.valid, res.details


def test_agent_that_never_answers_is_valid(tmp_path: Path) -> None:
    """accent+noise: the agent never answered; the caller waited 25 s, asked whether it was
    still there, waited 27 s more and said goodbye."""
    conv = (
        Conv()
        .agent(0.5, 2.5, GREETING)
        .user(
            3.0,
            5.0,
            "I'd like to add a checked bag to my booking.",
            heard="I'd like to add a check-by to me for us.",
        )
        .user(30.0, 31.5, "Hello? Are you still there?")
        .user(58.5, 60.0, "Okay, I'll try again later. Goodbye.")
    )
    rec = conv.write(tmp_path / "r", final_db=copy.deepcopy(INITIAL_DB))
    res = EvalGate(JudgesConfig())(rec)
    assert res.valid, res.details


def test_walking_away_from_a_progressing_agent_is_still_invalid(tmp_path: Path) -> None:
    conv = (
        _lookup()
        .agent(7.0, 10.0, "I found your booking. Which flight would you like the bag added to?")
        .user(11.0, 12.5, "Never mind, I have to go. Bye.")
    )
    rec = conv.write(tmp_path / "r", final_db=copy.deepcopy(INITIAL_DB))
    res = EvalGate(JudgesConfig())(rec)
    assert not res.valid and res.reason == "invalid: user_behavioral_fidelity"
    assert res.details["evidence"]["user_behavioral_fidelity"][0]["rule"].startswith("caller ended the call")
