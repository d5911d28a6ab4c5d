"""Source of voxbench's built-in airline scenarios (our own data, EVA format).

Run `python scripts/build_builtin_data.py` to turn this into
`src/voxbench/scenarios/data/data/airline_dataset.json` and the starting databases.
Reference tool responses and the expected final database are produced by replaying the
reference trace through our tools; the script prints the database diff so a person
reviews that the change is exactly what the goal asks for.
"""

from __future__ import annotations

import copy
from typing import Any

PERSONA = (
    "You are polite but busy. You answer what you are asked in a few words and do not volunteer "
    "extra information. You want the call done quickly."
)

DOMAIN = "airline"

EDGE = [
    "If the agent asks whether there is anything else, say no, thank them and end the call.",
    "Never invent new requests beyond your goal.",
    "Do not ask for a supervisor.",
]


def _segment(
    fn: str, date: str, o: str, d: str, dep: str, arr: str, minutes: int, gate: str
) -> dict[str, Any]:
    return {
        "segment_number": 1,
        "flight_number": fn,
        "origin": o,
        "destination": d,
        "scheduled_departure": dep,
        "origin_utc_offset": -7,
        "scheduled_arrival": arr,
        "destination_utc_offset": -7,
        "duration_minutes": minutes,
        "aircraft_type": "A220",
        "status": "scheduled",
        "delay_minutes": None,
        "delay_reason": None,
        "cancellation_reason": None,
        "gate": gate,
        "available_seats": {
            "basic_economy": 9,
            "main_cabin": 31,
            "premium_economy": 8,
            "business": 4,
            "first": 0,
        },
        "fares": {
            "basic_economy": 119.0,
            "main_cabin": 189.0,
            "premium_economy": 329.0,
            "business": 649.0,
            "first": 0.0,
        },
        "available_seat_types": {
            "basic_economy": ["middle"],
            "main_cabin": ["window", "aisle", "middle"],
            "premium_economy": ["window", "aisle"],
            "business": ["window", "aisle"],
            "first": [],
        },
    }


def _db(
    conf: str, fn: str, date: str, o: str, d: str, dep: str, arr: str, minutes: int, seat: str | None
) -> dict[str, Any]:
    jid = f"FL_{fn}_{date.replace('-', '')}"
    seg = _segment(fn, date, o, d, dep, arr, minutes, "B7")
    return {
        "_current_date": "",
        "reservations": {
            conf: {
                "confirmation_number": conf,
                "status": "confirmed",
                "passengers": [
                    {
                        "passenger_id": "PAX001",
                        "first_name": "<FIRST_NAME>",
                        "last_name": "<LAST_NAME>",
                        "ticket_number": "4470012345678",
                        "email": "<FIRST_NAME_ROMANIZED>.<LAST_NAME_ROMANIZED>@example.org",
                        "phone": "<PHONE>",
                        "elite_status": None,
                        "meal_preference": "none",
                        "seat_preference": "no_preference",
                    }
                ],
                "bookings": [
                    {
                        "journey_id": jid,
                        "fare_class": "main_cabin",
                        "fare_paid": 189.0,
                        "status": "confirmed",
                        "segments": [
                            {
                                "flight_number": fn,
                                "date": date,
                                "fare_paid": 189.0,
                                "seat": seat,
                                "bags_checked": 0,
                                "meal_request": None,
                            }
                        ],
                    }
                ],
                "booking_date": "2026-04-02T18:40:00-07:00",
                "fare_type": "non_refundable",
                "ancillaries": {"seat_selection_fee": 0, "bags_fee": 0},
            }
        },
        "journeys": {
            jid: {
                "journey_id": jid,
                "date": date,
                "origin": o,
                "destination": d,
                "num_stops": 0,
                "total_duration_minutes": minutes,
                "segments": [seg],
                "status": "scheduled",
                "bookable": True,
                "fares": copy.deepcopy(seg["fares"]),
            }
        },
        "disruptions": {},
        "travel_credits": {},
        "meal_vouchers": {},
        "refunds": {},
    }


def _goal(goal: str, must: list[str], info: dict[str, Any], resolution: str) -> dict[str, Any]:
    return {
        "high_level_user_goal": goal,
        "decision_tree": {
            "must_have_criteria": must,
            "nice_to_have_criteria": [],
            "negotiation_behavior": [
                "Give your confirmation code and last name when the agent asks for them."
            ],
            "resolution_condition": resolution,
            "failure_condition": "If the agent cannot do it after two tries, say goodbye and end the call.",
            "escalation_behavior": "Do not ask for a live agent. If offered a transfer, decline.",
            "edge_cases": EDGE,
        },
        "information_required": info,
    }


def _names(first: str, last: str, phone: str) -> dict[str, Any]:
    return {"en": {"first_name": first, "last_name": last, "phone": phone}}


def _u(text: str) -> dict[str, Any]:
    return {"event_type": "user_utterance", "utterance": text}


def _a(text: str) -> dict[str, Any]:
    return {"event_type": "agent_utterance", "utterance": text}


def _call(name: str, **params: Any) -> dict[str, Any]:
    return {"event_type": "tool_call", "tool_name": name, "params": params}


SCENARIOS: list[dict[str, Any]] = [
    {
        "id": "bb.1",
        "current_date_time": "2026-05-04 10:15 MST",
        "db": _db("QX7T4M", "BB212", "2026-05-06", "DEN", "SEA", "08:20", "10:05", 165, "14C"),
        "user_goal": _goal(
            "You want to add one checked bag to your Bluebird Air flight from Denver to Seattle on May 6th.",
            ["One checked bag is added to your flight."],
            {"Your confirmation code": "QX7T4M", "Your last name": "<LAST_NAME>", "Bags wanted": 1},
            "The agent confirms one checked bag was added. Thank them and end the call.",
        ),
        "names": _names("Dana", "Whitfield", "303-555-0142"),
        "gender": "woman",
        "starting": "Hi, I'd like to add a checked bag to my flight.",
        "trace": [
            _u("Hi, I'd like to add a checked bag to my flight."),
            _a("Sure. What's your confirmation code and last name?"),
            _u("It's Q X 7 T 4 M, and the last name is <LAST_NAME>."),
            _call("get_reservation", confirmation_number="QX7T4M", last_name="<LAST_NAME>"),
            _a(
                "Thanks, I have your flight BB212 from Denver to Seattle on May sixth. How many checked bags in total?"
            ),
            _u("Just one."),
            _call(
                "add_baggage_allowance",
                confirmation_number="QX7T4M",
                journey_id="FL_BB212_20260506",
                num_bags=1,
            ),
            _a("Done, one checked bag is now on your flight. Anything else?"),
            _u("No, that's all. Thanks, bye."),
        ],
    },
    {
        "id": "bb.2",
        "current_date_time": "2026-05-11 16:40 MST",
        "db": _db("HN4R8B", "BB488", "2026-05-13", "PHX", "DEN", "13:05", "14:55", 110, None),
        "user_goal": _goal(
            "You want a window seat on your Bluebird Air flight from Phoenix to Denver on May 13th.",
            ["You get a window seat on your flight."],
            {
                "Your confirmation code": "HN4R8B",
                "Your last name": "<LAST_NAME>",
                "Seat preference": "window",
            },
            "The agent confirms a window seat was assigned. Thank them and end the call.",
        ),
        "names": _names("Marcus", "Okafor", "602-555-0188"),
        "gender": "man",
        "starting": "Hello, can I get a window seat on my flight?",
        "trace": [
            _u("Hello, can I get a window seat on my flight?"),
            _a("Of course. May I have your confirmation code and last name?"),
            _u("H N 4 R 8 B, last name <LAST_NAME>."),
            _call("get_reservation", confirmation_number="HN4R8B", last_name="<LAST_NAME>"),
            _a(
                "Got it, flight BB488 from Phoenix to Denver on May thirteenth. You'd like a window seat, right?"
            ),
            _u("Yes, a window please."),
            _call(
                "assign_seat",
                confirmation_number="HN4R8B",
                passenger_id="PAX001",
                journey_id="FL_BB488_20260513",
                seat_preference="window",
            ),
            _a("You're all set with a window seat. Anything else?"),
            _u("No, thank you. Goodbye."),
        ],
    },
    {
        "id": "bb.3",
        "current_date_time": "2026-05-20 07:30 MST",
        "db": _db("TC2W9K", "BB105", "2026-05-20", "SLC", "DEN", "11:45", "13:00", 75, "9A"),
        "user_goal": _goal(
            "You want to know whether your Bluebird Air flight from Salt Lake City to Denver today is on time, "
            "and its departure time and gate.",
            ["Learn whether today's flight is on time.", "Learn the departure time and gate."],
            {
                "Your confirmation code": "TC2W9K",
                "Your last name": "<LAST_NAME>",
                "Flight": "today to Denver",
            },
            "The agent tells you the status, departure time and gate. Thank them and end the call.",
        ),
        "names": _names("Priya", "Raman", "801-555-0117"),
        "gender": "woman",
        "starting": "Hi, is my flight to Denver today on time?",
        "trace": [
            _u("Hi, is my flight to Denver today on time?"),
            _a("Let me check. What's your confirmation code and last name?"),
            _u("T C 2 W 9 K, <LAST_NAME>."),
            _call("get_reservation", confirmation_number="TC2W9K", last_name="<LAST_NAME>"),
            _call("get_flight_status", flight_number="BB105", flight_date="2026-05-20"),
            _a("Flight BB105 to Denver is on time, leaving at eleven forty-five from gate B7."),
            _u("Great, thanks. Bye."),
        ],
    },
]
