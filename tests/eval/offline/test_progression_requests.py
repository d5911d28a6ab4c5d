"""conversation_progression on calls with several requests: the procedure said again for the
next request is no repeat, the same thing said again still is."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline import progression

from .convs import A, U, call, context, result

TOOLS: list[dict[str, Any]] = [
    {"name": "get_application_details", "tool_type": "read"},
    {"name": "submit_access_request", "tool_type": "write"},
]


def _repeats(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = progression.findings(context(events, agent_tools=TOOLS))
    return [f for f in found if f["feature"] in ("repeated_statements", "repeated_questions")]


def _request(app: str, catalog: str, req: str) -> list[dict[str, Any]]:
    """One access request: lookup, the found line, the go-ahead, the write, the read-back."""
    return [
        U(f"I need access to {app}."),
        call("get_application_details", application_name=app),
        result("get_application_details", {"status": "success", "catalog_id": catalog, "name": app}),
        A(f"I found {app}, catalog I D {' '.join(catalog)}. Do I have your approval to submit that now?"),
        U("Yes."),
        call("submit_access_request", catalog_id=catalog, employee_id="EMP058321"),
        result("submit_access_request", {"status": "success", "request_id": req}),
        A(f"Your request is submitted. The request number is {', '.join(req)}."),
    ]


def test_the_next_request_read_back_in_the_same_template_is_no_repeat() -> None:
    events = [A("Hi, how can I help you today?"),
              *_request("Confluence", "APP-1001", "REQ-SW-048271"),
              *_request("Datadog", "APP-1002", "REQ-SW-048272")]  # fmt: skip
    assert _repeats(events) == []


def test_the_same_request_number_read_again_is_a_repeat() -> None:
    events = [A("Hi, how can I help you today?"), *_request("Confluence", "APP-1001", "REQ-SW-048271"),
              U("Okay."), A("The request number is R, E, Q, -, S, W, -, 0, 4, 8, 2, 7, 1.")]  # fmt: skip
    assert [f["feature"] for f in _repeats(events)] == ["repeated_statements"]


def test_a_new_value_no_tool_returned_since_is_still_a_repeat() -> None:
    """Another number in the same sentence is news only when a tool returned it after the
    earlier sentence: a figure the agent changes on its own tells the caller nothing new."""
    events = [A("Hi, how can I help you today?"), *_request("Confluence", "APP-1001", "REQ-SW-048271"),
              U("Okay."), A("The request number is R, E, Q, -, S, W, -, 0, 4, 8, 2, 7, 9.")]  # fmt: skip
    assert [f["feature"] for f in _repeats(events)] == ["repeated_statements"]


def test_a_go_ahead_asked_again_before_anything_was_done_is_a_repeat() -> None:
    ask = "Do I have your permission to place the order for you?"
    events = [
        A("Hi, how can I help you today?"),
        U("I need access to Confluence."),
        A(ask),
        U("Hmm."),
        A(ask),
    ]
    assert [f["feature"] for f in _repeats(events)] == ["repeated_questions"]
    done = [A("Hi, how can I help you today?"), U("I need access to Confluence."), A(ask), U("Yes."),
            call("submit_access_request", catalog_id="APP-1001", employee_id="EMP058321"),
            result("submit_access_request", {"status": "success", "request_id": "REQ-SW-048271"}),
            U("And Datadog too."),
            call("get_application_details", application_name="Datadog"),
            result("get_application_details", {"status": "success", "catalog_id": "APP-1002", "name": "Datadog"}),
            A(ask)]  # fmt: skip
    assert _repeats(done) == []  # done, and the next request looked up: the go-ahead is for it
    same = [*done[:6], U("Okay."), A(ask)]
    assert [f["feature"] for f in _repeats(same)] == ["repeated_questions"]  # done, nothing new since
