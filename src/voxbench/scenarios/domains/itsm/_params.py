"""EVA's ITSM parameter models: formats, bounds and the field -> error-type map.

Patterns are matched on the raw input (EVA does not normalise). Request and case ids
have EVA's content-hash shape; the descriptions, and the ticket id pattern EVA's
reference does not spell out, are ours (the ticket pattern deliberately permissive: a
well-formed ticket number always reaches the tool).
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.validation import ParamRules, Rule

NULLISH = ("", ".", "none", "null", "n/a", "na")

_EMP = Rule(
    error_type="invalid_employee_id_format",
    pattern=r"^EMP\d{6}$",
    description="EMP followed by 6 digits",
    examples=("EMP048271",),
)
_PHONE = Rule(error_type="invalid_phone_format", pattern=r"^\d{4}$", description="exactly 4 digits")
_DATE = Rule(
    error_type="invalid_date_format",
    pattern=r"^\d{4}-\d{2}-\d{2}$",
    description="a date in YYYY-MM-DD format",
)
_TIME = Rule(
    error_type="invalid_time_format", pattern=r"^\d{2}:\d{2}$", description="a time in HH:MM 24-hour format"
)
_ASSET = Rule(
    error_type="invalid_asset_tag_format",
    pattern=r"^AST-[A-Z]{3}-\d{6}$",
    description="an asset tag AST-XXX-NNNNNN",
    examples=("AST-LPT-284719",),
)

# EVA's allowed justifications per hardware request type (a model validator).
JUSTIFICATIONS = {
    "laptop_replacement": ("end_of_life", "performance_degradation", "physical_damage", "lost_or_stolen"),
    "monitor_bundle": ("new_setup", "replacement"),
}


def _hardware_cross(p: dict[str, Any]) -> str | None:
    allowed = JUSTIFICATIONS.get(str(p.get("request_type")))
    if allowed is not None and p.get("justification") not in allowed:
        return f"justification for {p.get('request_type')} must be one of: {', '.join(allowed)}"
    return None


PARAM_RULES = ParamRules(
    style="itsm",
    fields={
        **{
            f: _EMP
            for f in (
                "employee_id",
                "new_hire_employee_id",
                "manager_employee_id",
                "departing_employee_id",
                "approver_employee_id",
                "escalate_to_employee_id",
            )
        },
        "phone_last_four": _PHONE,
        "new_phone_last_four": _PHONE,
        "otp_code": Rule(error_type="invalid_otp_format", pattern=r"^\d{6}$", description="exactly 6 digits"),
        "manager_auth_code": Rule(pattern=r"^[A-Z0-9]{6}$"),
        "asset_tag": _ASSET,
        "current_asset_tag": Rule(
            **{**_ASSET.model_dump(), "nullish": NULLISH, "hint": "Omit it for a new setup"}
        ),
        "ticket_number": Rule(
            error_type="invalid_ticket_number_format",
            pattern=r"^INC[A-Za-z0-9]+$",
            description="INC followed by its number",
        ),
        # EVA's content-hash ids: a 2-5 capital category and 12 lower-case hex characters.
        "request_id": Rule(
            error_type="invalid_request_id_format",
            pattern=r"^REQ-[A-Z]{2,5}-[0-9a-f]{12}$",
            description="REQ-, a 2-5 letter category, a dash and 12 lower-case hex characters",
            examples=("REQ-HW-3f9a1c0b7d2e",),
        ),
        "case_id": Rule(
            error_type="invalid_case_id_format",
            pattern=r"^CASE-[A-Z]{2,5}-[0-9a-f]{12}$",
            description="CASE-, a 2-5 letter category, a dash and 12 lower-case hex characters",
            examples=("CASE-ACCT-3f9a1c0b7d2e",),
        ),
        "group_code": Rule(
            error_type="invalid_group_code_format", pattern=r"^GRP-[A-Z0-9]+$", description="GRP- and a code"
        ),
        "action": Rule(error_type="invalid_membership_action"),
        "incident_type": Rule(error_type="invalid_security_incident_type"),
        **{
            f: _DATE
            for f in (
                "date",
                "preferred_date",
                "effective_date",
                "start_date",
                "last_working_day",
                "review_date",
            )
        },
        "start_time": _TIME,
        "end_time": _TIME,
        "floor_code": Rule(pattern=r"^FL\d{1,2}$"),
        "diagnostic_ref_code": Rule(pattern=r"^DIAG-[A-Z0-9]{8}$"),
        "license_assignment_id": Rule(pattern=r"^LASGN-\d{6}$"),
        "zone_or_building": Rule(max_length=20),
        "min_capacity": Rule(gt=0, le=50),
        "attendee_count": Rule(gt=0, le=50),
        "issue_summary": Rule(min_length=10, max_length=500),
        "equipment_required": Rule(nullish=NULLISH, str_or_list=True),
        "monitor_size": Rule(nullish=NULLISH, hint="monitor_size applies to monitor_bundle requests only"),
        "laptop_os": Rule(nullish=NULLISH, hint="laptop_os applies to laptop_replacement requests only"),
        "laptop_size": Rule(nullish=NULLISH, hint="laptop_size applies to laptop_replacement requests only"),
        # EVA accepts 30/60/90 as int or string; 0, "" and null-like strings mean permanent.
        "duration_days": Rule(
            error_type="invalid_duration",
            enum=("30", "60", "90", 30, 60, 90, 0, "0"),
            nullish=NULLISH,
            hint="Omit duration_days for a permanent license",
        ),
    },
    tools={
        "submit_license_request": {"catalog_id": Rule(pattern=r"^LIC-\d{4}$")},
        "submit_license_renewal": {"catalog_id": Rule(pattern=r"^LIC-\d{4}$")},
    },
    cross={"submit_hardware_request": _hardware_cross},
)
