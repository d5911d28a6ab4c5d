"""The orchestrator's validation gate and scoring without a judge endpoint: the offline
user_behavioral_fidelity decides validity (any registered method, through `rate_offline`), and
`judges.mode` picks the judge mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval.builders import small_conversation
from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import OFFLINE, OfflineMethod, load_all
from voxbench.eval.types import MetricResult
from voxbench.orchestrator.config import JudgesConfig
from voxbench.orchestrator.eval_bridge import EvalGate, eval_config


def _method(value: float) -> OfflineMethod:
    def rate(ctx: ConversationContext) -> MetricResult:
        return MetricResult(name="user_behavioral_fidelity", score=value, normalized_score=value,
                            details={"evidence": [{"turn": 1, "claim": "c", "rule": "r"}]})  # fmt: skip

    return OfflineMethod("user_behavioral_fidelity", "test-gate", "0", rate)


def test_eval_gate_uses_the_offline_behavioural_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_all()  # import every method module first, so none re-registers over the patched entry
    rec = small_conversation().write(tmp_path / "r")
    gate = EvalGate(JudgesConfig())
    assert gate.config.text_judge_mode() == "offline"
    monkeypatch.setitem(OFFLINE, "user_behavioral_fidelity", _method(0.0))
    bad = gate(rec)
    assert not bad.valid and bad.reason == "invalid: user_behavioral_fidelity"
    monkeypatch.setitem(OFFLINE, "user_behavioral_fidelity", _method(1.0))
    assert gate(rec).valid
    off = EvalGate(JudgesConfig(mode="none"))
    res = off(rec)
    assert res.valid and "user_behavioral_fidelity" in res.details["skipped"]


def test_judges_mode_in_the_run_config() -> None:
    assert eval_config(JudgesConfig()).text_judge_mode() == "offline"
    assert eval_config(JudgesConfig(mode="none")).text_judge_mode() == "none"
    llm = eval_config(JudgesConfig(base_url="http://127.0.0.1:9/v1", model="m"))
    assert llm.text_judge_mode() == "llm"
    with pytest.raises(ValueError, match="mode"):
        JudgesConfig(mode="sometimes")  # type: ignore[arg-type]
