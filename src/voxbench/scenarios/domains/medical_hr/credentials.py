"""Provider credentials: license extensions, malpractice coverage, DEA transfers (EVA's rules).

License and malpractice tools take provider verification or a verified OTP; DEA records
need provider verification and then OTP as a second factor. EVA's extension submission
does not re-check eligibility, and its DEA transfer and PDMP notice check little.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error, session, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    US_STATES,
    Result,
    case_id,
    fmt,
    notify,
    parse_date,
    provider,
    require,
    today,
)

EXTENSION_WINDOW_DAYS = 60
EXTENSION_DAYS = (30, 60, 90)
MIN_PER_OCCURRENCE_USD = 1_000_000


def _license(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, dict[str, Any] | None, Result | None]:
    """Validate (npi, state_license_number), gate on provider auth, find the license."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return None, None, err
    lic_no, err = fmt("state_license_number", params["state_license_number"], "state_license_number")
    if err:
        return None, None, err
    if err := require(db, "provider_auth", "otp_auth"):
        return None, None, err
    prov, err = provider(db, npi)
    if err or prov is None:
        return None, None, err
    lic = (prov.get("licenses") or {}).get(lic_no)
    if not isinstance(lic, dict):
        return prov, None, error("license_not_found", f"License {lic_no} not found for NPI {npi}")
    return prov, lic, None


def _extension_block(lic: dict[str, Any], db: dict[str, Any]) -> Result | None:
    """Why a license cannot be extended now (pending, hold, expired, too early), if it cannot."""
    if lic.get("extension_status") == "pending":
        return error("already_extended", "An extension request is already pending for this license")
    if lic.get("investigation_hold"):
        return error("investigation_hold", "License is under investigation and cannot be extended")
    if not lic.get("expiration_date"):
        return None
    exp = date.fromisoformat(str(lic.get("expiration_date")))
    now = today(db)
    if exp < now:
        return error(
            "license_expired",
            f"License expired on {exp.isoformat()}. Extensions cannot be requested for already-expired licenses.",
        )
    days_left = (exp - now).days
    if days_left > EXTENSION_WINDOW_DAYS:
        return error(
            "extension_too_early",
            f"License does not expire for {days_left} days. Extensions may only be requested within "
            f"{EXTENSION_WINDOW_DAYS} days of the expiration date.",
        )
    return None


@TOOLS.tool
def get_license_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The license as on file, so the agent reviews it before any change."""
    _, lic, err = _license(params, db)
    if err or lic is None:
        return err or {}
    return success(license=lic)


@TOOLS.tool
def check_extension_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Eligibility gate for an extension, checked before collecting the extension details."""
    _, lic, err = _license(params, db)
    if err or lic is None:
        return err or {}
    if err := _extension_block(lic, db):
        return err
    return success(
        eligible=True,
        license_expiration_date=lic.get("expiration_date"),
        message="License is eligible for extension",
    )


@TOOLS.tool
def submit_license_extension(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """File a provisional or supervised extension (EVA: eligibility is not re-checked)."""
    prov, lic, err = _license(params, db)
    if err or lic is None or prov is None:
        return err or {}
    days = params["extension_days"]
    if days not in EXTENSION_DAYS:
        return error(
            "invalid_extension_days", f"Extension duration must be exactly 30, 60 or 90 days, got {days}"
        )
    ext_type = params["extension_type"]
    supervisor: str | None = None
    if ext_type == "supervised":
        supervisor = params.get("supervising_physician_npi") or None
        if supervisor is None:
            return error(
                "supervising_physician_required", "Supervised extensions require a supervising physician NPI"
            )
        if supervisor not in (db.get("providers") or {}):
            return error(
                "supervising_physician_not_found", f"Supervising physician NPI {supervisor} not found"
            )
    cid = case_id("LIC", str(prov.get("employee_id")))
    lic.update(
        extension_status="pending", extension_type=ext_type, extension_days=days, extension_case_id=cid
    )
    if ext_type == "supervised":  # EVA drops the NPI of a provisional extension and writes nothing
        lic["supervising_physician_npi"] = supervisor
    return success(
        npi=prov.get("npi"),
        state_license_number=lic.get("state_license_number"),
        extension_type=ext_type,
        extension_days=days,
        supervising_physician_npi=supervisor,
        case_id=cid,
        message=f"{ext_type} extension submitted. Case ID: {cid}",
    )


@TOOLS.tool
def notify_credentialing_committee(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Report a credential, privilege or malpractice change to the committee."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return err
    cid, err = fmt("case_id", params["case_id"], "case_id")
    if err:
        return err
    if err := require(db, "provider_auth", "otp_auth"):
        return err
    _, err = provider(db, npi)
    if err:
        return err
    kind = params["notification_type"]
    notify(
        db, {"recipient": "credentialing_committee", "npi": npi, "case_id": cid, "notification_type": kind}
    )
    return success(
        npi=npi,
        case_id=cid,
        notification_type=kind,
        message=f"Credentialing committee notified: {kind}",
    )


# ── malpractice ──────────────────────────────────────────────────────────────


@TOOLS.tool
def get_malpractice_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Current coverage; an uninitialised (empty) record is reported as missing."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return err
    if err := require(db, "provider_auth", "otp_auth"):
        return err
    prov, err = provider(db, npi)
    if err or prov is None:
        return err or {}
    mal = prov.get("malpractice")
    if not mal:
        return error("record_not_found", f"No malpractice record found for NPI {npi}")
    return success(malpractice=mal)


@TOOLS.tool
def update_malpractice_coverage(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Replace the coverage on file; below $1M per occurrence flags re-credentialing."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return err
    policy, err = fmt("policy_number", params["new_policy_number"], "new_policy_number")
    if err:
        return err
    per_occ, aggregate = params["per_occurrence_limit_usd"], params["aggregate_limit_usd"]
    eff, err = parse_date(params["effective_date"], "effective_date")
    if err or eff is None:
        return err or {}
    exp, err = parse_date(params["expiration_date"], "expiration_date")
    if err or exp is None:
        return err or {}
    if err := require(db, "provider_auth", "otp_auth"):
        return err
    prov, err = provider(db, npi)
    if err or prov is None:
        return err or {}
    mal = prov.get("malpractice")
    if not mal:
        return error(
            "record_not_found",
            f"No malpractice record on file for NPI {npi}. Contact credentialing to have a record "
            "initialized first.",
        )
    recredential = per_occ < MIN_PER_OCCURRENCE_USD
    cid = case_id("MAL", str(prov.get("employee_id")))
    mal.update(
        carrier=params["new_carrier"],
        policy_number=policy,
        per_occurrence_limit_usd=per_occ,
        aggregate_limit_usd=aggregate,
        effective_date=eff.isoformat(),
        expiration_date=exp.isoformat(),
        recredential_required=recredential,
        update_case_id=cid,
    )
    msg = "Malpractice coverage updated successfully"
    if recredential:
        msg += f". Coverage below threshold \u2014 re-credentialing required. Case ID: {cid}"
    return success(
        npi=npi,
        new_carrier=params["new_carrier"],
        new_policy_number=policy,
        per_occurrence_limit_usd=per_occ,
        aggregate_limit_usd=aggregate,
        effective_date=eff.isoformat(),
        expiration_date=exp.isoformat(),
        recredential_required=recredential,
        case_id=cid,
        message=msg,
    )


# ── DEA ──────────────────────────────────────────────────────────────────────


def _dea(
    params: dict[str, Any], db: dict[str, Any], what: str
) -> tuple[dict[str, Any] | None, Result | None]:
    """Provider auth, then OTP as EVA's second factor, then the registration."""
    if err := require(db, "provider_auth"):
        return None, err
    if session(db).get("otp_auth") is not True:
        return None, error("second_factor_required", f"{what} OTP verification as a second factor")
    npi, dea_no = params["npi"], params["dea_number"]
    prov, err = provider(db, npi)
    if err or prov is None:
        return None, err
    dea = prov.get("dea_registration")
    if not isinstance(dea, dict) or dea.get("dea_number") != dea_no:
        return None, error("dea_record_not_found", f"DEA number {dea_no} not found for NPI {npi}")
    return prov, None


@TOOLS.tool
def get_dea_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The DEA registration, only once provider verification and OTP are both done."""
    prov, err = _dea(params, db, "DEA operations require")
    if err or prov is None:
        return err or {}
    return success(dea_registration=prov["dea_registration"])


@TOOLS.tool
def transfer_dea_registration(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Queue a transfer; the current registration stays in force until the effective date."""
    new_facility, err = fmt("facility_code", params["new_facility_code"], "new_facility_code")
    if err:
        return err
    new_state, err = fmt("state_code", params["new_state_code"], "new_state_code")
    if err:
        return err
    if new_state not in US_STATES:
        return error("invalid_new_state_code", f"{new_state} is not a US state abbreviation")
    eff, err = parse_date(params["effective_date"], "effective_date")
    if err or eff is None:
        return err or {}
    prov, err = _dea(params, db, "DEA transfer requires")
    if err or prov is None:
        return err or {}
    dea = prov["dea_registration"]
    cid = case_id("DEA", str(prov.get("employee_id")))
    reason = params["transfer_reason"]
    dea["status"] = "transfer_pending"
    dea["pending_transfer"] = {
        "new_facility_code": new_facility,
        "new_state_code": new_state,
        "transfer_reason": reason,
        "effective_date": eff.isoformat(),
        "transfer_case_id": cid,
    }
    return success(
        npi=prov.get("npi"),
        dea_number=dea.get("dea_number"),
        current_facility_code=dea.get("facility_code"),
        current_state_code=dea.get("state_code"),
        new_facility_code=new_facility,
        new_state_code=new_state,
        transfer_reason=reason,
        effective_date=eff.isoformat(),
        case_id=cid,
        message=(
            f"DEA transfer submitted. Current registration unchanged until effective date {eff.isoformat()}. "
            f"Case ID: {cid}"
        ),
    )


@TOOLS.tool
def notify_pdmp(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Tell the state PDMP about a DEA transfer (EVA: provider auth; the DEA number as given)."""
    state, err = fmt("state_code", params["state_code"], "state_code")
    if err:
        return err
    if state not in US_STATES:
        return error("invalid_state_code", f"{state} is not a US state abbreviation")
    facility, err = fmt("facility_code", params["facility_code"], "facility_code")
    if err:
        return err
    if err := require(db, "provider_auth"):
        return err
    npi, dea_no = params["npi"], params["dea_number"]
    _, err = provider(db, npi)
    if err:
        return err
    notify(
        db,
        {
            "recipient": "pdmp",
            "npi": npi,
            "dea_number": dea_no,
            "state_code": state,
            "facility_code": facility,
            "notification_type": "dea_transfer",
        },
    )
    return success(
        npi=npi,
        dea_number=dea_no,
        state_code=state,
        facility_code=facility,
        message=f"PDMP notified for state {state}, facility {facility}",
    )
