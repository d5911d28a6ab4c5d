"""The trace caller waits through an agent's tool call (fake services, real loopback WebSocket).

Built-in scenario bb.1: the reference trace has a tool call before the agent's answers to the
caller's code and to "Just one." The fake agent does what a live cascade agent does: it says
its hold line ("One moment please."), stays quiet for 2.5 s while its LLM "runs", then
answers. With ``follow_trace_turns`` the caller speaks only after the answer; without it the
caller answers into the tool call's silence (the bug this guards against).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import fast_config
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.trace_simulator import reference_user_turns
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.records import LLMText, Utterance, read_record
from voxbench.scenarios import check_task_completion, load_dataset
from voxbench.scenarios.loader import builtin_dataset_dir
from voxbench.transports.virtual_loop import run_virtual

TOOL_SILENCE_S = 2.5  # > turn_gap_s (0.8 in fast_config), < hold_gap_s
ANSWER = "Thanks, I have your flight. How many checked bags in total?"
DONE = "Done, one checked bag is now on your flight. Anything else?"


def _call() -> CallScenario:
    dd = load_dataset(builtin_dataset_dir(), ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, "bb.1")


def _agent(call: CallScenario) -> AgentServices:
    last = str(call.resolver.resolve("<LAST_NAME>"))
    lookup = ("get_reservation", {"confirmation_number": "QX7T4M", "last_name": last})
    add_bag = (
        "add_baggage_allowance",
        {"confirmation_number": "QX7T4M", "journey_id": "FL_BB212_20260506", "num_bags": 1},
    )
    script = [
        Reply("Sure. What's your confirmation code and last name?"),
        Reply(tool_calls=[lookup]),  # the agent says its pre-tool hold line, then calls
        Reply(ANSWER, delay_s=TOOL_SILENCE_S),
        Reply(tool_calls=[add_bag]),
        Reply(DONE, delay_s=TOOL_SILENCE_S),
        Reply("Goodbye."),
    ]
    heard = [t.text for t in reference_user_turns(call.scenario, call.resolver)]
    return AgentServices(stt=FakeSTT(heard), llm=FakeLLM(script), tts=FakeTTS(f0=120.0))


def _config(follow: bool) -> CallConfig:
    cfg = fast_config()
    trace = cfg.simulator.trace.model_copy(update={"follow_trace_turns": follow})
    cfg.simulator = cfg.simulator.model_copy(update={"trace": trace})
    return cfg


def test_reference_turns_expect_a_hold_line_before_answers_after_tools() -> None:
    call = _call()
    turns = reference_user_turns(call.scenario, call.resolver)
    assert [t.agent_turns for t in turns] == [1, 1, 2, 2]
    assert turns[2].text == "Just one."


@pytest.mark.parametrize("follow", [True, False])
def test_trace_caller_waits_for_the_answer_after_a_tool_call(follow: bool, tmp_path: Path) -> None:
    call = _call()
    sim = SimulatorServices(tts=FakeTTS(f0=220.0))
    record = run_virtual(run_call(call, _config(follow), _agent(call), sim, tmp_path))
    assert record.status == "completed", record.error
    assert record.end_reason == "trace_finished"
    ev = read_record(tmp_path).events
    said = {e.text: e.t for e in ev if isinstance(e, Utterance)}
    agent = {e.text: e.t for e in ev if isinstance(e, LLMText) and e.side == "agent"}
    just_one, bye = said["Just one."], said["No, that's all. Thanks, bye."]
    if follow:
        # each line comes after the answer that follows the tool's silence, never inside it
        assert just_one > agent[ANSWER]
        assert bye > agent[DONE]
        b = read_record(tmp_path)
        assert b.final_db is not None
        assert check_task_completion(call.expected_db, b.final_db).success
    else:
        # the old behaviour: the hold line's silence was taken for the end of the agent's turn,
        # so the caller spoke before the answer (whose LLM turn its speech then interrupted)
        assert ANSWER not in agent or just_one < agent[ANSWER]
