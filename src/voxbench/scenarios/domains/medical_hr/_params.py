"""EVA's medical_hr parameter models: formats, bounds and the field -> error-type map.

Patterns are matched on the raw input (EVA does not normalise). The descriptions, and
the patterns EVA's reference does not spell out, are ours (`_base.FORMATS`); the ones
the reference names are EVA's: case ids with a 2-6 character prefix, completion codes
in either case, dependent names of 2-30 letters or hyphens.
"""

from __future__ import annotations

from voxbench.scenarios.domains.medical_hr._base import FORMATS
from voxbench.scenarios.validation import ParamRules, Rule


def _fmt(kind: str, error_type: str, pattern: str | None = None) -> Rule:
    pat, hint = FORMATS[kind]
    return Rule(error_type=error_type, pattern=pattern or pat.pattern, description=hint)


_EMP = _fmt("employee_id", "invalid_employee_id_format")
_NPI = _fmt("npi", "invalid_npi_format")
_FACILITY = _fmt("facility_code", "invalid_facility_code_format")
_DATE = Rule(
    error_type="invalid_date_format",
    pattern=r"^\d{4}-\d{2}-\d{2}$",
    description="a date in YYYY-MM-DD format",
)
_STATE = _fmt("state_code", "invalid_state_code_format")
_COUNTRY = _fmt("country_code", "invalid_country_code_format")
_NAME = Rule(
    error_type="invalid_name_format", pattern=r"^[A-Za-z\-]{2,30}$", description="2-30 letters or hyphens"
)
_LIMIT = Rule(error_type="invalid_coverage_limit")

_DATE_FIELDS = (
    "date_of_birth",
    "dependent_date_of_birth",
    "document_expiration_date",
    "effective_date",
    "end_date",
    "expiration_date",
    "leave_end_date",
    "leave_start_date",
    "preferred_date",
    "start_date",
    "availability_start_date",
    "availability_end_date",
)

PARAM_RULES = ParamRules(
    style="medical_hr",
    fields={
        "employee_id": _EMP,
        "colleague_employee_id": _EMP,
        "npi": _NPI,
        "supervising_physician_npi": _NPI,
        "facility_code": _FACILITY,
        "new_facility_code": _FACILITY,
        "pin": _fmt("pin", "invalid_pin_format"),
        "otp_code": _fmt("otp_code", "invalid_otp_format"),
        "state_license_number": _fmt("state_license_number", "invalid_license_number_format"),
        "shift_id": _fmt("shift_id", "invalid_shift_id_format"),
        "unit_code": _fmt("unit_code", "invalid_unit_code_format"),
        "case_id": _fmt("case_id", "invalid_case_id_format", r"^CASE-[A-Z0-9]{2,6}-\d{6}$"),
        **dict.fromkeys(_DATE_FIELDS, _DATE),
        "blackout_dates": Rule(
            error_type="invalid_date_format",
            item_pattern=r"^\d{4}-\d{2}-\d{2}$",
            description=_DATE.description,
        ),
        "appointment_datetime": Rule(
            error_type="invalid_appointment_datetime_format",
            pattern=r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$",
            description="a date and time in YYYY-MM-DD HH:MM format",
        ),
        "corrected_hours": Rule(error_type="invalid_hours", gt=0, le=24),
        "per_occurrence_limit_usd": _LIMIT,
        "aggregate_limit_usd": _LIMIT,
        "state_code": _STATE,
        "new_state_code": _STATE,
        "visa_petition_number": _fmt("petition_number", "invalid_petition_number_format"),
        "uscis_receipt_number": _fmt("petition_number", "invalid_uscis_receipt_format"),
        "dependent_first_name": _NAME,
        "dependent_last_name": _NAME,
        "dependent_country_of_birth": _COUNTRY,
        "issuing_country_code": _COUNTRY,
        "document_number": _fmt("document_number", "invalid_document_number_format"),
        "privilege_codes": Rule(
            error_type="invalid_privilege_code", item_pattern=FORMATS["privilege_code"][0].pattern
        ),
        "clearance_code": _fmt("clearance_code", "invalid_clearance_code_format"),
        "completion_code": _fmt("completion_code", "invalid_completion_code_format", r"^[A-Za-z0-9]{4}$"),
        "dea_number": _fmt("dea_number", "invalid_dea_number_format"),
        "new_policy_number": _fmt("policy_number", "invalid_policy_number_format"),
        "notification_type": Rule(error_type="invalid_notification_type"),
    },
    # EVA: any transfer reason and summary, empty included.
    tools={"transfer_to_agent": {"transfer_reason": Rule(no_enum=True)}},
)
