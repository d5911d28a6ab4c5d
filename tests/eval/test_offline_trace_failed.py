"""Which tool results the offline judges read as failed: every failure shape a record holds."""

from __future__ import annotations

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline._trace import lookup_missed, read_conversation, response_failed


def test_executor_error_shapes_are_failures() -> None:
    assert response_failed({"status": "error", "error_type": "not_found", "message": "x"})
    assert response_failed({"status": "not_found"})
    assert response_failed({"error_type": "invalid_parameter"})


def test_is_error_shape_is_a_failure() -> None:
    # The judge-validation records carry tool errors as {"is_error": true, "error": ...}.
    resp = {"is_error": True, "error": "Reservation XGHYV6 not found"}
    assert response_failed(resp)
    assert lookup_missed(resp)


def test_successes_are_not_failures() -> None:
    assert not response_failed({"status": "success", "reservation": {}})
    assert not response_failed({"is_error": False, "result": "ok"})
    assert not response_failed({})


def test_parameters_and_results_recorded_as_json_strings_are_read_as_objects() -> None:
    # Some traces record a tool's parameters and result as JSON text, not objects.
    ctx = ConversationContext(
        record_id="r",
        conversation_trace=[
            {"type": "tool_call", "tool_name": "get_reservation",
             "parameters": '{"confirmation_number": "ZK3FFW"}'},
            {"type": "tool_response", "tool_name": "get_reservation",
             "tool_response": '{"is_error": true, "error": "Reservation ZK3FFW not found"}'},
            {"type": "tool_call", "tool_name": "get_reservation",
             "parameters": "not json {"},
        ],
    )  # fmt: skip
    call, resp, odd = read_conversation(ctx).steps
    assert call.params == {"confirmation_number": "ZK3FFW"}
    assert response_failed(resp.response)
    assert odd.params == {"value": "not json {"}
