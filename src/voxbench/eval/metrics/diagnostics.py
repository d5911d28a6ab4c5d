"""Diagnostic code metrics (not in composites, excluded from pass@k)."""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.exact_mean import mean
from voxbench.eval.types import EvalConfig, MetricResult, metric, sub
from voxbench.scenarios import session_auth_mismatches

# Calls that never reached a tool body, or reached it with malformed arguments.
GENERIC_INVALID = frozenset(
    {
        "tool_not_found",
        "function_not_found",
        "execution_error",
        "invalid_parameter",
        "invalid_arguments",
        "unexpected_parameter",
        "missing_parameter",
    }
)
# EVA's airline field-format error types (its FIELD_ERROR_TYPES values), which EVA counts
# in every domain; they are part of the catalogue of rates every record reports.
EVA_FIELD_ERROR_TYPES = frozenset(
    {
        "invalid_confirmation_number_format",
        "invalid_flight_number_format",
        "invalid_date_format",
        "invalid_journey_id_format",
        "invalid_passenger_id_format",
        "invalid_airport_code_format",
        "invalid_fare_class",
        "invalid_bag_count",
    }
)
# `invalid_<x>` names that report a well-formed but wrong credential: a business outcome
# (they occur in EVA's own reference traces), not a malformed call.
CREDENTIAL_MISMATCH = frozenset({"invalid_otp", "invalid_otp_code", "invalid_clearance_code"})


def is_invalid_call(error_type: str | None, tool_params: set[str] | None = None) -> bool:
    """EVA counts generic errors plus airline's field-format errors only; voxbench counts
    every domain's field-format errors: `invalid_<param>` / `*_format` for a parameter of
    the tool (any `invalid_*` when the tool schema is unknown), minus credential mismatches."""
    if not error_type:
        return False
    if error_type in GENERIC_INVALID:
        return True
    if error_type in CREDENTIAL_MISMATCH:
        return False
    if error_type.endswith("_format"):
        return True
    if error_type.startswith("invalid_"):
        field = error_type.removeprefix("invalid_")
        return tool_params is None or field in tool_params or field.removesuffix("s") in tool_params
    return False


def _tool_params(ctx: ConversationContext) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for t in ctx.agent_tools:
        ps = [*(t.get("required_parameters") or []), *(t.get("optional_parameters") or [])]
        out[str(t.get("name"))] = {str(p.get("name")) for p in ps if isinstance(p, dict)}
    return out


def error_catalogue(schemas: dict[str, set[str]]) -> set[str]:
    """Every invalid-call type a record reports a rate for, 0 when it did not occur (as EVA
    does), so run-level rates average over all records, not only those that had the error:
    the generic types, EVA's field-format types, and `invalid_<param>` for each parameter
    of the agent's tools."""
    return set(GENERIC_INVALID | EVA_FIELD_ERROR_TYPES) | {
        f"invalid_{p}" for ps in schemas.values() for p in ps
    }


@metric("tool_call_validity", category="diagnostic", version="v0.1-vb2", exclude_from_pass_at_k=True)
def tool_call_validity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Share of tool calls that were well formed (all three domains' format errors)."""
    calls = [c for c in ctx.tool_calls if c.response is not None or c.error_type]
    schemas = _tool_params(ctx)
    if not calls:  # nothing invalid (1.0, as EVA); a rate over no calls is present and null
        subs = {"num_tool_calls": sub("num_tool_calls", 0.0, False)}
        subs.update({f"{k}_rate": sub(f"{k}_rate", None) for k in sorted(error_catalogue(schemas))})
        return MetricResult(
            name="tool_call_validity", score=1.0, normalized_score=1.0,
            details={"num_tool_calls": 0, "num_invalid_calls": 0}, sub_metrics=subs,
        )  # fmt: skip
    invalid: dict[str, int] = {}
    bad: list[dict[str, Any]] = []
    for c in calls:
        if is_invalid_call(c.error_type, schemas.get(c.name) if schemas else None):
            invalid[str(c.error_type)] = invalid.get(str(c.error_type), 0) + 1
            bad.append({"turn_id": c.turn_id, "tool": c.name, "error_type": c.error_type})
    n = len(calls)
    s = round((n - sum(invalid.values())) / n, 4)
    subs = {"num_tool_calls": sub("num_tool_calls", float(n), False)}
    kinds = sorted(error_catalogue(schemas) | set(invalid))
    subs.update({f"{k}_rate": sub(f"{k}_rate", round(invalid.get(k, 0) / n, 4)) for k in kinds})
    return MetricResult(
        name="tool_call_validity", score=s, normalized_score=s,
        details={"num_tool_calls": n, "num_invalid_calls": len(bad), "invalid_calls": bad}, sub_metrics=subs,
        params={"rule": "generic + every domain's field-format errors (EVA: airline only)"},
    )  # fmt: skip


@metric("authentication_success", category="diagnostic", version="v0.1", exclude_from_pass_at_k=True)
def authentication_success(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """1 if the final session holds every expected session key (case-insensitive strings)."""
    name = "authentication_success"
    exp = (ctx.expected_db or {}).get("session") or {}
    if not exp:
        return MetricResult.skip(name, "scenario expects no authenticated session")
    if ctx.final_db is None:
        return MetricResult.fail(name, "no final database in the record")
    mism = session_auth_mismatches(ctx.expected_db or {}, ctx.final_db)
    auth_tools = {str(t.get("name")) for t in ctx.agent_tools if t.get("tool_type") == "auth"}
    counts = {k: sum(1 for c in ctx.tool_calls if c.name == k) for k in auth_tools}
    used = {k: v for k, v in counts.items() if v}
    ok = not mism
    n_calls = sum(used.values())
    subs: dict[str, MetricResult] = {}
    if ok and used:
        subs["auth_first_try_success"] = sub(
            "auth_first_try_success", float(all(v == 1 for v in used.values()))
        )
        subs["num_auth_calls"] = sub("num_auth_calls", round(mean(used.values()), 4), False)
        subs["authentication_success_rate"] = sub(
            "authentication_success_rate", round(len(used) / n_calls, 4)
        )
    elif not ok:
        subs["num_auth_calls_on_failure"] = sub("num_auth_calls_on_failure", float(n_calls), False)
    s = 1.0 if ok else 0.0
    return MetricResult(
        name=name, score=s, normalized_score=s, details={"mismatches": mism, "auth_calls": counts},
        sub_metrics=subs,
    )  # fmt: skip


@metric("conversation_correctly_finished", category="diagnostic", version="v0.1", exclude_from_pass_at_k=True)
def conversation_correctly_finished(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """0 if the agent went silent on the caller's turn until the inactivity timeout."""
    s = 0.0 if ctx.is_agent_timeout_on_user_turn() else 1.0
    return MetricResult(
        name="conversation_correctly_finished", score=s, normalized_score=s,
        details={"ended_reason": ctx.conversation_ended_reason, "last_speaker": ctx.last_audio_speaker()},
    )  # fmt: skip


@metric("conversation_completed_on_time", category="diagnostic", version="v0.1", exclude_from_pass_at_k=True)
def conversation_completed_on_time(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """0 if the conversation hit the time limit."""
    s = 0.0 if ctx.conversation_ended_reason in ("time_limit", "time_limit_exceeded") else 1.0
    return MetricResult(name="conversation_completed_on_time", score=s, normalized_score=s)


def percentile(vals: list[float], p: float) -> float:
    """Nearest-rank percentile over the sorted values: sorted[min(n-1, int(p*n))]."""
    s = sorted(vals)
    return s[min(len(s) - 1, int(p * len(s)))]


@metric(
    "response_speed",
    category="diagnostic",
    version="v0.2-vb1",
    higher_is_better=False,
    pass_threshold=None,
    exclude_from_pass_at_k=True,
)
def response_speed(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Mean seconds from the caller's last speech to the agent's first speech, per turn."""
    tool_turns = ctx.tool_turns()
    lat = {t: v for t, v in ctx.latency_assistant_turns.items() if 0 < v < 1000}
    if not lat:
        return MetricResult.skip("response_speed", "no turn with a positive latency")
    vals = list(lat.values())
    with_tool = [v for t, v in lat.items() if t in tool_turns]
    no_tool = [v for t, v in lat.items() if t not in tool_turns]

    def stats(prefix: str, xs: list[float]) -> dict[str, MetricResult]:
        """Mean and percentiles of one group; an empty group (no tool turn, or every turn a
        tool turn) has the same keys, null, so run-level means count it as not measured."""
        out = {prefix: sub(prefix, round(mean(xs), 4) if xs else None, False)}
        for p in (50, 90, 95):
            val = round(percentile(xs, p / 100), 4) if xs else None
            out[f"{prefix}.p{p}"] = sub(f"{prefix}.p{p}", val, False)
        return out

    subs: dict[str, MetricResult] = {}
    for k in ("p50", "p90", "p95"):
        subs[k] = sub(k, round(percentile(vals, float(f"0.{k[1:]}")), 4), False)
    subs.update(stats("with_tool_calls", with_tool))
    subs.update(stats("no_tool_calls", no_tool))
    stage_names = {"stt": "stt_latency", "llm": "llm_latency", "llm_ttft": "llm_latency", "tts": "tts_latency",
                   "tts_ttfb": "tts_latency", "llm_total": "llm_total_latency", "tool": "tool_latency"}  # fmt: skip
    for stage, xs in ctx.stage_latencies.items():
        if xs:
            subs.update(stats(stage_names.get(stage, f"{stage}_latency"), xs))
    return MetricResult(
        name="response_speed", score=round(mean(vals), 4), normalized_score=None,
        details={"per_turn_latency_s": lat, "num_turns": len(ctx.latency_assistant_turns),
                 "num_evaluated": len(lat), "excluded_non_positive": sorted(set(ctx.latency_assistant_turns) - set(lat))},
        sub_metrics=subs, params={"unit": "s", "percentile": "nearest-rank sorted[min(n-1,int(p*n))]"},
    )  # fmt: skip
