"""A report whose subject is mostly another thing than the caller came for completes none of its
requests (:meth:`voxbench.pipelines.caller.goal.scope.Scope.other_done` with ``mostly``): a
farewell summing up another caller's call ('I submitted your access update for role code ...')
leaves its request open, raised before it hangs up; a report of its own request, or one too bare to
tell ('the required review has been scheduled'), still completes it."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller


def _caller(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"confirmation_code": "ZK3FFW", "last_name": "Lima"},
        goal="You want to move your flight to an earlier one today.",
        must=["The agent keeps the same fare code; no fee is required."],
        start="Hi, I need to change my flight.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_farewell_about_another_thing_raises_the_open_request(seed: int) -> None:
    act = _caller(seed).respond(
        "You're welcome. I submitted your access update for role code M G E N G with the Standard "
        "template, and scheduled the required review for November 30th. Goodbye."
    )
    assert not act.ends_call and act.rule == "agent_goodbye_request_open" and "flight" in act.text


@pytest.mark.parametrize(
    "report",
    [
        "Your flight has been moved to the 2 PM departure today.",
        "All set, your booking is updated and the required fare code stays the same.",
        "Your request has been submitted, and the required review has been scheduled.",
    ],
)
def test_a_report_of_its_request_or_too_bare_to_tell_completes_it(report: str) -> None:
    c = _caller()
    act = c.respond(f"{report} Goodbye.")
    assert act.ends_call and c.done == [True]
