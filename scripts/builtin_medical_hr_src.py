"""Source of voxbench's built-in medical HR scenarios (our own data, EVA format).

`python scripts/build_builtin_data.py` turns this into `medical_hr_dataset.json` and the
starting databases; tool responses and the expected database come from replaying the trace.
"""

from __future__ import annotations

from typing import Any

from _src_common import a, call, goal, names, u

DOMAIN = "medical_hr"
PERSONA = (
    "You are calm and polite, calling between patients. You answer what you are asked briefly and "
    "do not volunteer extra information."
)
VERIFY = "Give your employee ID and date of birth when the agent asks."


def _employee(emp_id: str, dob: str, **over: Any) -> dict[str, Any]:
    emp: dict[str, Any] = {
        "employee_id": emp_id,
        "first_name": "<FIRST_NAME_ROMANIZED>",
        "last_name": "<LAST_NAME_ROMANIZED>",
        "date_of_birth": dob,
        "phone": "<PHONE>",
        "department_code": "RAD",
        "role": "radiology_technologist",
        "employment_status": "active",
        "schedule_type": "standard",
        "pto_balances": {"pto": 11.0, "sick": 6.0},
        "pto_requests": [],
    }
    emp.update(over)
    return emp


def _db(emp: dict[str, Any], shifts: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "_current_date": "",
        "employees": {emp["employee_id"]: emp},
        "providers": {},
        "shifts": shifts or {},
        "org_holidays": ["2026-05-25", "2026-07-03"],
        "department_blackout_dates": {"RAD": ["2026-06-29", "2026-06-30"]},
        "notifications": [],
    }


def _shift(sid: str, emp_id: str, day: str, hours: float, period_end: str) -> dict[str, Any]:
    return {
        "shift_id": sid,
        "employee_id": emp_id,
        "date": day,
        "unit_code": "2A-MED",
        "start_time": "07:00",
        "end_time": "19:00",
        "status": "logged",
        "hours_logged": hours,
        "overtime_hours": 0.0,
        "on_call_hours": 0.0,
        "pay_period_end_date": period_end,
        "pay_period_closed": False,
        "correction_status": None,
    }


SCENARIOS: list[dict[str, Any]] = [
    {
        "id": "hr.1",
        "current_date_time": "2026-05-14 12:10 EST",
        "db": _db(_employee("EMP512094", "1988-03-22")),
        "user_goal": goal(
            "You want to take paid time off from Monday June 8th to Friday June 12th, 2026.",
            ["A PTO request for June 8 to June 12, 2026 is submitted and you get its case ID."],
            {
                "employee_id": "EMP512094",
                "date_of_birth": "1988-03-22",
                "pto_type": "pto",
                "start_date": "2026-06-08",
                "end_date": "2026-06-12",
            },
            "The agent gives you the case ID of the submitted request. Thank them and end the call.",
            [VERIFY, "If the agent says how many days it uses, accept it and confirm the request."],
        ),
        "names": names("Grace", "Mbeki", "312-555-0187"),
        "gender": "woman",
        "starting": "Hi, I'd like to book a week of PTO in June.",
        "trace": [
            u("Hi, I'd like to book a week of PTO in June."),
            a("Sure. Your employee ID and date of birth, please?"),
            u("E M P 5 1 2 0 9 4, born March 22nd, 1988."),
            call("verify_employee_auth", employee_id="EMP512094", date_of_birth="1988-03-22"),
            a("Thanks. Which dates?"),
            u("Monday June 8th through Friday June 12th."),
            call(
                "check_pto_eligibility",
                employee_id="EMP512094",
                pto_type="pto",
                start_date="2026-06-08",
                end_date="2026-06-12",
            ),
            a("That's five PTO days, leaving you six. Shall I submit it?"),
            u("Yes, go ahead."),
            call(
                "submit_pto_request",
                employee_id="EMP512094",
                pto_type="pto",
                start_date="2026-06-08",
                end_date="2026-06-12",
            ),
            a("Submitted. Your case ID is C A S E, P T O, 5 1 2 0 9 4. Anything else?"),
            u("No, thanks. Bye."),
        ],
    },
    {
        "id": "hr.2",
        "current_date_time": "2026-05-06 18:45 EST",
        "db": _db(
            _employee("EMP640283", "1979-11-05", department_code="MED", role="registered_nurse"),
            {
                "SHF-20260502-0700": _shift(
                    "SHF-20260502-0700", "EMP640283", "2026-05-02", 12.0, "2026-05-09"
                ),
                "SHF-20260503-0700": _shift(
                    "SHF-20260503-0700", "EMP640283", "2026-05-03", 12.0, "2026-05-09"
                ),
            },
        ),
        "user_goal": goal(
            "Your timesheet for the May 2nd day shift is missing the overtime you worked: you stayed two "
            "and a half hours past the end of the shift. You want it corrected.",
            ["A payroll correction of 2.5 overtime hours is submitted for your May 2nd shift."],
            {
                "employee_id": "EMP640283",
                "date_of_birth": "1979-11-05",
                "shift_id": "SHF-20260502-0700",
                "correction_type": "overtime_hours",
                "corrected_hours": 2.5,
            },
            "The agent confirms the correction and gives a case ID. Thank them and end the call.",
            [VERIFY, "Give the shift ID when asked.", "The missing hours are overtime: 2.5 hours in total."],
        ),
        "names": names("Daniel", "Reyes", "312-555-0144"),
        "gender": "man",
        "starting": "Hi, my overtime from last Saturday didn't make it onto my timesheet.",
        "trace": [
            u("Hi, my overtime from last Saturday didn't make it onto my timesheet."),
            a("I can look into it. What's your employee ID and date of birth?"),
            u("E M P 6 4 0 2 8 3, November 5th, 1979."),
            call("verify_employee_auth", employee_id="EMP640283", date_of_birth="1979-11-05"),
            a("Thank you. What's the shift ID?"),
            u("S H F, 2 0 2 6 0 5 0 2, dash 0 7 0 0."),
            call("check_correction_eligibility", employee_id="EMP640283", shift_id="SHF-20260502-0700"),
            a("That shift can still be corrected. How many overtime hours in total?"),
            u("Two and a half."),
            call(
                "submit_payroll_correction",
                employee_id="EMP640283",
                shift_id="SHF-20260502-0700",
                correction_type="overtime_hours",
                corrected_hours=2.5,
            ),
            a("Done: 2.5 overtime hours, case C A S E, P A Y, 6 4 0 2 8 3. Anything else?"),
            u("No, that's everything. Thanks."),
        ],
    },
    {
        "id": "hr.3",
        "current_date_time": "2026-05-21 07:05 EST",
        "db": _db(_employee("EMP733418", "1992-08-30", department_code="LAB", role="lab_scientist")),
        "user_goal": goal(
            "You woke up with a fever and need to call in sick today, Thursday May 21st, using one sick day.",
            ["A sick-leave request for May 21, 2026 is submitted and you get its case ID."],
            {
                "employee_id": "EMP733418",
                "date_of_birth": "1992-08-30",
                "pto_type": "sick",
                "start_date": "2026-05-21",
                "end_date": "2026-05-21",
            },
            "The agent gives you the case ID of the sick-day request. Thank them and end the call.",
            [VERIFY, "It is just today; you expect to be back tomorrow."],
        ),
        "names": names("Lucas", "Ferreira", "312-555-0126"),
        "gender": "man",
        "starting": "Hi, I need to call in sick today.",
        "trace": [
            u("Hi, I need to call in sick today."),
            a("Sorry to hear that. Your employee ID and date of birth?"),
            u("E M P 7 3 3 4 1 8, August 30th, 1992."),
            call("verify_employee_auth", employee_id="EMP733418", date_of_birth="1992-08-30"),
            a("Thanks. Just today, May twenty-first?"),
            u("Yes, just today."),
            call(
                "submit_pto_request",
                employee_id="EMP733418",
                pto_type="sick",
                start_date="2026-05-21",
                end_date="2026-05-21",
            ),
            a("One sick day is filed, case C A S E, P T O, 7 3 3 4 1 8. Feel better. Anything else?"),
            u("No, thank you. Bye."),
        ],
    },
]
