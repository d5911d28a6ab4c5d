"""The report's validation-gate section: attempts per conversation, why each discarded
attempt was regenerated (with the gate's evidence) and a link to its record."""

from __future__ import annotations

from pathlib import Path

from tests.eval.builders import small_conversation
from voxbench.records import ConversationRecord, atomic_write_json, write_record
from voxbench.reports import build_report, load_run


def test_gate_section_shows_each_discarded_attempt(tmp_path: Path) -> None:
    run = tmp_path / "run"
    conv = small_conversation()
    conv.scenario_id = "1.1.1"
    final = conv.write(run / "records" / "airline_1.1.1_t0_clean")
    rec = ConversationRecord.model_validate_json((final / "record.json").read_text())
    atomic_write_json(
        final / "record.json",
        rec.model_copy(update={"conversation_id": "airline_1.1.1_t0_clean", "attempt": 1}),
    )
    failed = run / "records" / "airline_1.1.1_t0_clean_failed_attempt_0"
    write_record(
        failed,
        ConversationRecord(
            conversation_id="airline_1.1.1_t0_clean", domain="airline", scenario_id="1.1.1",
            status="invalid", error="invalid: user_behavioral_fidelity", error_source="validation",
        ),
    )  # fmt: skip
    evidence = {"turn": 3, "claim": "agent asked 'Which date?'; caller then: 'Never mind, bye.'",
                "rule": "caller ended the call while the agent was progressing"}  # fmt: skip
    atomic_write_json(
        failed / "attempt.json",
        {"status": "invalid", "cause": "invalid: user_behavioral_fidelity",
         "validation": {"failed_metrics": ["user_behavioral_fidelity"], "evidence": {"user_behavioral_fidelity": [evidence]}}},
    )  # fmt: skip
    data = load_run(run)
    (a,) = data.attempts
    assert (a.conversation_id, a.attempt, a.failed_validators) == (
        "airline_1.1.1_t0_clean",
        0,
        ["user_behavioral_fidelity"],
    )
    rep = build_report([run], tmp_path / "report")
    assert "airline_1.1.1_t0_clean attempt 1 discarded: invalid: user_behavioral_fidelity" in rep.terminal
    html = (tmp_path / "report" / "index.html").read_text()
    section = html[html.index("<section id='gate'>") :]
    section = section[: section.index("</section>")]
    assert "1 conversations used 2 attempts" in section
    assert "caller ended the call while the agent was progressing" in section
    assert "Never mind, bye." in section
    assert (failed / "record.json").resolve().as_uri() in section
