"""The agent's date goes after the tool schemas, so a domain's calls share one warm prompt."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pipecat.services.openai.llm")

from pipecat.processors.aggregators.llm_context import LLMContext

from voxbench.pipelines.agent.cascade import instruct_agent
from voxbench.pipelines.agent.tools import tools_schema
from voxbench.pipelines.services import LLMConfig, make_llm
from voxbench.pipelines.services.llm_service import with_note_after_instruction
from voxbench.pipelines.warmup import warm_payload
from voxbench.scenarios import load_dataset


async def _request(date: str, monkeypatch: pytest.MonkeyPatch, **shaping: Any) -> tuple[dict[str, Any], str]:
    monkeypatch.setenv("VX_TEST_KEY", "secret")
    spec = load_dataset(None, ["airline"]).domains["airline"].agent
    cfg = LLMConfig(
        kind="openai-compatible",
        base_url="http://127.0.0.1:1/v1",
        model="m",
        api_key_env="VX_TEST_KEY",
        **shaping,
    )
    llm = make_llm(cfg)
    instruct_agent(llm, spec, date)
    context = LLMContext(messages=[{"role": "user", "content": "Hi."}], tools=tools_schema(spec))
    invocation = await llm.get_llm_adapter().get_llm_invocation_params(
        context, system_instruction=llm.settings.system_instruction, convert_developer_to_user=False
    )
    return llm.build_chat_completion_params(invocation), warm_payload(llm, context)


async def test_date_is_its_own_message_after_the_instruction(monkeypatch: pytest.MonkeyPatch) -> None:
    params, _ = await _request("2026-03-17 10:45 CST", monkeypatch)
    roles = [m["role"] for m in params["messages"]]
    assert roles == ["system", "system", "user"]
    assert "2026-03-17" not in params["messages"][0]["content"]
    assert params["messages"][1]["content"] == "The current date and time is 2026-03-17 10:45 CST."


async def test_two_dates_share_the_instruction_tools_and_warm_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    a, warm_a = await _request("2026-03-17 10:45 CST", monkeypatch)
    b, warm_b = await _request("2026-08-17 11:30 EST", monkeypatch)
    assert a["messages"][0] == b["messages"][0] and a["tools"] == b["tools"]
    assert a["messages"][1] != b["messages"][1]
    assert warm_a == warm_b  # one saved prompt serves every scenario of the domain


async def test_a_reply_policy_change_names_a_new_warm_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy rewrites the prompt (compact tools, reply format): a prompt saved under an
    older policy must not be restored for a newer one."""
    date = "2026-03-17 10:45 CST"
    _, plain = await _request(date, monkeypatch, tool_call_mode="json_schema", say_then_tool=True)
    _, planned = await _request(
        date, monkeypatch, tool_call_mode="json_schema", say_then_tool=True, plan_replies=True
    )
    _, again = await _request(date, monkeypatch, tool_call_mode="json_schema", say_then_tool=True)
    assert plain != planned and plain == again


def test_note_without_an_instruction_leads() -> None:
    user = {"role": "user", "content": "Hi."}
    assert with_note_after_instruction([user], "n") == [{"role": "system", "content": "n"}, user]
