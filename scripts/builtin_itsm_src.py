"""Source of voxbench's built-in ITSM scenarios (our own data, EVA format).

`python scripts/build_builtin_data.py` turns this into `itsm_dataset.json` and the starting
databases; tool responses and the expected database come from replaying the trace.
"""

from __future__ import annotations

import copy
from typing import Any

from _src_common import a, call, goal, names, u

DOMAIN = "itsm"
PERSONA = (
    "You are friendly and a little hurried. You answer what you are asked in a few words and do not "
    "volunteer extra information."
)
VERIFY = "Give your employee ID and the last four digits of your phone number when the agent asks."


def _employee(emp_id: str, phone4: str, **over: Any) -> dict[str, Any]:
    emp: dict[str, Any] = {
        "employee_id": emp_id,
        "first_name": "<FIRST_NAME_ROMANIZED>",
        "last_name": "<LAST_NAME_ROMANIZED>",
        "phone_last_four": phone4,
        "otp_code": "550231",
        "department_code": "FIN",
        "role_code": "ANL",
        "employment_status": "active",
        "building_code": "BLD2",
        "floor_code": "FL3",
        "is_manager": False,
        "manager_employee_id": "EMP310977",
        "manager_auth_code": None,
        "direct_reports": [],
        "assigned_desk": None,
        "assigned_parking": None,
        "last_desk_assignment_date": None,
        "last_parking_assignment_date": None,
        "account_status": {
            "active_directory": {"locked": False, "lock_reason": None, "requires_in_person_reset": False},
            "sso": {"locked": False, "lock_reason": None, "requires_in_person_reset": False},
            "email": {"locked": False, "lock_reason": None, "requires_in_person_reset": False},
            "vpn": {"locked": False, "lock_reason": None, "requires_in_person_reset": False},
        },
        "software_licenses": [],
    }
    emp.update(over)
    return emp


def _db(emp: dict[str, Any]) -> dict[str, Any]:
    return {
        "_current_date": "",
        "employees": {emp["employee_id"]: emp},
        "facilities": {
            "buildings": {
                "BLD2": {"name": "Harbor Building", "floors": ["FL1", "FL2", "FL3"]},
                "BLD4": {"name": "Elm Street Annex", "floors": ["FL1", "FL2"]},
            },
            "desks": {
                "BLD2-FL3-D112": {
                    "building_code": "BLD2",
                    "floor_code": "FL3",
                    "zone": "north",
                    "near_window": True,
                    "status": "available",
                    "assigned_employee_id": None,
                },
                "BLD2-FL3-D118": {
                    "building_code": "BLD2",
                    "floor_code": "FL3",
                    "zone": "north",
                    "near_window": False,
                    "status": "available",
                    "assigned_employee_id": None,
                },
                "BLD2-FL3-D120": {
                    "building_code": "BLD2",
                    "floor_code": "FL3",
                    "zone": "south",
                    "near_window": True,
                    "status": "assigned",
                    "assigned_employee_id": "EMP310977",
                },
                "BLD4-FL1-D004": {
                    "building_code": "BLD4",
                    "floor_code": "FL1",
                    "zone": "east",
                    "near_window": False,
                    "status": "available",
                    "assigned_employee_id": None,
                },
            },
            "parking": {},
            "zones": {},
        },
        "tickets": {},
        "requests": {},
    }


_LOCKED = _employee("EMP204817", "6620")
# EVA's tools look the account up under the target_system name as given (as EVA's own
# data does for email_exchange), so the locked account is keyed `vpn_gateway`.
del _LOCKED["account_status"]["vpn"]
_LOCKED["account_status"]["vpn_gateway"] = {
    "locked": True,
    "lock_reason": "failed_attempts",
    "requires_in_person_reset": False,
}

_LICENSED = _employee(
    "EMP377145",
    "0418",
    software_licenses=[
        {
            "license_assignment_id": "LASGN-377145",
            "license_name": "Tableau Creator",
            "catalog_id": "SW-TAB-CR",
            "assigned_date": "2025-06-02",
            "expiration_date": "2026-06-02",
            "status": "active",
        },
        {
            "license_assignment_id": "LASGN-377146",
            "license_name": "Visio Professional",
            "catalog_id": "SW-VIS-PRO",
            "assigned_date": "2025-11-20",
            "expiration_date": "2026-11-20",
            "status": "active",
        },
    ],
)

SCENARIOS: list[dict[str, Any]] = [
    {
        "id": "it.1",
        "current_date_time": "2026-05-12 08:40 EST",
        "db": _db(copy.deepcopy(_LOCKED)),
        "user_goal": goal(
            "You are locked out of the VPN after too many wrong passwords and need the service desk to "
            "unlock it so you can work from home today.",
            ["Your VPN account is unlocked."],
            {
                "employee_id": "EMP204817",
                "phone_last_four": "6620",
                "target_system": "vpn_gateway",
                "issue_description": "Locked out of the VPN after too many failed sign-ins",
            },
            "The agent confirms the VPN account is unlocked. Thank them and end the call.",
            [VERIFY, "If asked which system, say the VPN.", "You want an unlock, not a password reset."],
        ),
        "names": names("Tomas", "Lindqvist", "617-555-6620"),
        "gender": "man",
        "starting": "Hi, I'm locked out of the VPN.",
        "trace": [
            u("Hi, I'm locked out of the VPN."),
            a("I can help. What's your employee ID and the last four digits of your phone number?"),
            u("E M P 2 0 4 8 1 7, and the last four are 6 6 2 0."),
            call("verify_employee_auth", employee_id="EMP204817", phone_last_four="6620"),
            a("Thanks, you're verified. Should I unlock your VPN account now?"),
            u("Yes please."),
            call("attempt_account_unlock", employee_id="EMP204817", target_system="vpn_gateway"),
            a("Your VPN account is unlocked; you can sign in again. Anything else?"),
            u("No, that's it. Thanks, bye."),
        ],
    },
    {
        "id": "it.2",
        "current_date_time": "2026-05-18 10:05 EST",
        "db": _db(_employee("EMP288530", "9154")),
        "user_goal": goal(
            "You have just moved to the finance team's floor and need a desk assigned on the third floor "
            "of the Harbor Building, preferably by a window.",
            ["A desk on floor 3 of the Harbor Building is assigned to you."],
            {
                "employee_id": "EMP288530",
                "phone_last_four": "9154",
                "building": "Harbor Building (BLD2)",
                "floor": "FL3",
                "desk_preference": "near a window",
            },
            "The agent confirms the desk assignment and its desk code. Thank them and end the call.",
            [
                VERIFY,
                "When asked where, say the Harbor Building, third floor.",
                "If offered several desks, choose one near a window.",
            ],
        ),
        "names": names("Aisha", "Bello", "617-555-9154"),
        "gender": "woman",
        "starting": "Hello, I need a desk assigned on my new floor.",
        "trace": [
            u("Hello, I need a desk assigned on my new floor."),
            a("Sure. Can I have your employee ID and the last four digits of your phone?"),
            u("EMP 2 8 8 5 3 0, last four 9 1 5 4."),
            call("verify_employee_auth", employee_id="EMP288530", phone_last_four="9154"),
            a("You're verified. Which building and floor?"),
            u("The Harbor Building, third floor. Something by a window if possible."),
            call("check_desk_availability", building_code="BLD2", floor_code="FL3"),
            a("Desk B L D 2 F L 3 D 1 1 2 is free and by a window. Shall I assign it to you?"),
            u("Yes, that one."),
            call("submit_desk_assignment", employee_id="EMP288530", desk_code="BLD2-FL3-D112"),
            a("Done, desk D 1 1 2 on the third floor is yours. Anything else?"),
            u("No, thank you. Goodbye."),
        ],
    },
    {
        "id": "it.3",
        "current_date_time": "2026-05-20 14:30 EST",
        "db": _db(copy.deepcopy(_LICENSED)),
        "user_goal": goal(
            "Your Tableau Creator license expires soon and you want it renewed for another year.",
            ["Your Tableau Creator license is renewed."],
            {"employee_id": "EMP377145", "phone_last_four": "0418", "license": "Tableau Creator"},
            "The agent confirms the renewal and the new expiry date. Thank them and end the call.",
            [VERIFY, "Only the Tableau license needs renewing, not Visio."],
        ),
        "names": names("Mei", "Tanaka", "617-555-0418"),
        "gender": "woman",
        "starting": "Hi, I'd like to renew my Tableau license before it runs out.",
        "trace": [
            u("Hi, I'd like to renew my Tableau license before it runs out."),
            a("Happy to help. Your employee ID and the last four digits of your phone number, please?"),
            u("It's E M P 3 7 7 1 4 5 and 0 4 1 8."),
            call("verify_employee_auth", employee_id="EMP377145", phone_last_four="0418"),
            call("get_employee_licenses", employee_id="EMP377145"),
            a("I see Tableau Creator expiring June second. Renew it for a year?"),
            u("Yes, please."),
            call("submit_license_renewal", employee_id="EMP377145", license_assignment_id="LASGN-377145"),
            a("Renewed; it now runs to June second, 2027. Anything else?"),
            u("No, that's all. Bye."),
        ],
    },
]
