"""End-of-call turns in words the templates do not have (issue 29, the wordings of EVA's reference
agents of other domains, benchmarks/caller_ref_endings.py): a report of something the caller never
asked for keeps its requests open though a reference number, a courtesy, a bare "All set." or a
goodbye comes with it, and a report naming its request still completes it; and a tree's own end
condition (bench/weak_treeend.py): a tree that says to push back three times gets three
push-backs, not a goodbye at the second because the generic line would be said again, and accepts
at the fourth refusal."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

FOREIGN = (
    "Your malpractice coverage was updated, and the credentialing committee was notified. "
    "Your confirmation number is Case M A L, three nine one three six nine."
)


def _flight_caller() -> GoalCaller:
    sc = make_scenario(
        {"confirmation_number": "ABC123", "last_name": "Lima"},
        goal="You want to move your flight to an earlier one today, with a confirmed seat.",
    )
    return opened(sc)


@pytest.mark.parametrize(
    "turn",
    [
        f"{FOREIGN} Is there anything else I can help you with today?",
        f"All set. {FOREIGN} Is there anything else I can help you with today?",
        f"Thank you for calling. {FOREIGN}",
    ],
)
def test_a_report_of_something_else_keeps_the_request_open(turn: str) -> None:
    reply = _flight_caller().respond(turn)
    assert not reply.ends_call
    assert "flight" in reply.text.lower()


def test_a_goodbye_after_a_report_of_something_else_gets_the_request_first() -> None:
    c = _flight_caller()
    first = c.respond(f"Thank you for calling. {FOREIGN} Goodbye.")
    assert not first.ends_call and "flight" in first.text.lower()
    assert c.respond("Goodbye.").ends_call


def test_a_report_naming_the_request_beside_a_number_still_completes_it() -> None:
    c = _flight_caller()
    reply = c.respond(
        "All set. Your flight has been moved to the 9 AM departure. Your confirmation number is A B C "
        "one two three. Is there anything else I can help you with today?"
    )
    assert reply.ends_call


PUSH = "after pushing back firmly 3 times, if you are clearly denied, accept the outcome."
REFUSALS = [
    "I'm sorry, I'm not able to file FMLA leave for 10 weeks.",
    "I'm sorry, but I'm unable to file FMLA leave for 10 weeks at this time.",
    "Unfortunately, I can't file FMLA leave for 10 weeks. That isn't something I'm able to do.",
    "I'm sorry, I'm not able to file FMLA leave for 10 weeks.",
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_three_push_backs_are_three_lines_then_it_accepts(seed: int) -> None:
    sc = make_scenario(
        {"employee_id": "EMP824156"},
        goal="You want to file a 10-week FMLA leave case for your own medical condition.",
        must=[f"You want to file a 10-week FMLA leave case, but {PUSH}"],
        escalation="Do not ask to speak to a live agent.",
        start="Hi, I need to file for FMLA leave.",
    )
    c = opened(sc, seed)
    replies = [c.respond(r) for r in REFUSALS]
    pushes = replies[:3]
    assert [r.rule for r in pushes] == ["tree_push_back"] * 3
    assert not any(r.ends_call for r in pushes)
    assert len({r.text for r in pushes}) == 3
    assert replies[3].ends_call
