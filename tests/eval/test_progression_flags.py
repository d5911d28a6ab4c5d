"""Progression's re-asked fact (`_progression_flags`): read from the record (the caller gives
back a value it gave and a successful call used), capping the rating at 2, at 1 when it happens
twice; and the ordinary conversations that are no re-ask.

The conversations are a reviewer's hand-made traces of the three domains (review of version 6,
2026-12-07), each with the rating a person gives it: 3 for the ordinary ones (a second record, a
corrected value, another person's field, a verification before a write, a first-turn lookup, a
re-ask after a line cut off), 2 for a single re-ask however it is worded, 1 for several.
"""

from __future__ import annotations

from typing import Any

import pytest

from voxbench.eval.context import ConversationContext
from voxbench.eval.metrics.judged import conversation_progression
from voxbench.eval.offline import progression
from voxbench.eval.offline._progression_record import read_record
from voxbench.eval.types import EvalConfig

OFF = EvalConfig(judge_mode="offline")
Step = tuple[str, Any]


def ctx_of(steps: list[Step], tools: list[dict[str, Any]] | None = None) -> ConversationContext:
    """A context from ("user" | "assistant", text) lines and ("call", (tool, params, response))
    steps; a caller line opens a turn. ``tools``: the agent's tool schemas."""
    trace: list[dict[str, Any]] = []
    turn = 0
    for kind, what in steps:
        if kind == "call":
            name, params, resp = what
            trace.append({"type": "tool_call", "tool_name": name, "parameters": params, "turn_id": turn})
            trace.append({"type": "tool_response", "tool_name": name, "tool_response": resp, "turn_id": turn})
            continue
        turn += kind == "user"
        trace.append({"role": kind, "content": what, "type": "intended", "turn_id": turn})
    return ConversationContext(record_id="hand", conversation_trace=trace, agent_tools=tools or [])


def reasks(steps: list[Step]) -> int:
    return sum(f["feature"] == "reasked_facts" for f in progression.findings(ctx_of(steps)))


def rated(steps: list[Step]) -> float:
    return conversation_progression(ctx_of(steps), OFF).score


OK = {"status": "success"}
NOT_FOUND = {"status": "error", "error_type": "not_found", "message": "No reservation found."}
A_RES = {"status": "success", "reservation": {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez"}}

A_OPEN: list[Step] = [
    ("assistant", "Hi, thanks for calling SkyWay. How can I help you today?"),
    ("user", "Hi, I need to check on my booking."),
    ("assistant", "Sure. May I have your six-character confirmation number and last name?"),
    ("user", "Z K three F F W, last name Rodriguez."),
    ("call", ("get_reservation", {"confirmation_number": "ZK3FFW", "last_name": "Rodriguez"}, A_RES)),
    ("assistant", "Thanks, I found your reservation on flight six twenty-one from Austin to Los Angeles."),
]
I_OPEN: list[Step] = [
    ("assistant", "Hi, how can I help you today?"),
    ("user", "Hi, I want to check the status of a request I put in."),
    (
        "assistant",
        "I can help. First, please give me your employee I D and the last four digits of your phone.",
    ),
    ("user", "My employee ID is E M P zero four eight two seven one, last four seven two nine four."),
    ("call", ("verify_employee_auth", {"employee_id": "EMP048271", "phone_last_four": "7294"}, OK)),
    ("assistant", "Thanks, Marcus, you are verified. What is the request I D?"),
    ("user", "It is R E Q one two three four five."),
    ("call", ("get_request_status", {"request_id": "REQ12345"}, {"status": "success", "state": "pending"})),
    ("assistant", "Request R E Q one two three four five is pending approval."),
]
M_OPEN: list[Step] = [
    ("assistant", "Hi, how can I help you today?"),
    ("user", "Hi, I need to swap a shift."),
    (
        "assistant",
        "Sure. Please give me your N P I number, your home facility code, and your four digit P I N.",
    ),
    (
        "user",
        "My N P I is three seven four six three one seven two one three. Facility code K A F N dash one three R.",
    ),
    ("call", ("verify_provider_auth", {"npi": "3746317213", "facility_code": "KAFN-13R", "pin": "4257"}, OK)),
    ("assistant", "Thank you, Doctor Sharma. What is the shift I D you want to swap?"),
    ("user", "It is S H F one one two two three."),
    ("call", ("get_shift_record", {"employee_id": "EMP126225", "shift_id": "SHF11223"}, OK)),
    ("assistant", "I see your shift on June fourteenth."),
]
END: list[Step] = [("user", "Okay, thanks."), ("assistant", "You are welcome. Goodbye.")]


def first_turn_status(flight: str, said: str) -> list[Step]:
    """A first-turn flight status lookup the caller's words feed, failing, then the right date."""
    return [
        ("assistant", "Hi, thanks for calling SkyWay. How can I help you today?"),
        ("user", said),
        ("call", ("get_flight_status", {"flight_number": flight, "flight_date": "2026-03-17"}, NOT_FOUND)),
        ("assistant", "I do not see that flight operating today. Could it be on a different date?"),
        ("user", "Oh, it is tomorrow actually."),
        ("call", ("get_flight_status", {"flight_number": flight, "flight_date": "2026-03-18"}, OK)),
        ("assistant", "It is on time tomorrow."),
        *END,
    ]


def rebooked(first: str, spoken: str, second: str) -> list[Step]:
    """A first-turn lookup of the code the caller gave, failing, then asked and retried."""
    call = ("get_reservation", {"confirmation_number": first, "last_name": "Rodriguez"}, NOT_FOUND)
    retry = ("get_reservation", {"confirmation_number": second, "last_name": "Rodriguez"}, A_RES)
    return [
        A_OPEN[0],
        ("user", f"Hi, my code is {spoken}, last name Rodriguez, and I want to change my flight."),
        ("call", call),
        ("assistant", "I could not find that booking. Could you spell the confirmation number once more?"),
        ("user", "Z K three F F W. W as in whiskey."),
        ("call", retry),
        ("assistant", "Thanks, I found your reservation."),
        *END,
    ]


ORDINARY: dict[str, list[Step]] = {
    "A1 a second booking": [
        *A_OPEN,
        ("user", "I also have a separate booking for my return trip, can you check that one too?"),
        ("assistant", "Of course. What is your confirmation number for the return booking?"),
        ("user", "P Q seven M two N."),
        ("call", ("get_reservation", {"confirmation_number": "PQ7M2N", "last_name": "Rodriguez"}, OK)),
        ("assistant", "Got it, that is flight nine hundred from Los Angeles to Austin."),
        *END,
    ],
    "A2 the caller corrects its code": [
        *A_OPEN,
        ("user", "Oh wait, that is not the trip I meant. I read you the wrong code from an old email."),
        ("assistant", "No problem. What is your correct confirmation number?"),
        ("user", "P Q seven M two N."),
        ("call", ("get_reservation", {"confirmation_number": "PQ7M2N", "last_name": "Rodriguez"}, OK)),
        ("assistant", "Thanks, I found it."),
        *END,
    ],
    "A3 a new travel date": [
        *A_OPEN,
        ("user", "I need to move it to March 25, arriving in the evening."),
        (
            "call",
            ("search_rebooking_options", {"origin": "AUS", "destination": "LAX", "date": "2026-03-25"}, OK),
        ),
        (
            "assistant",
            "On March twenty-fifth the only flight arrives in the morning. What is your preferred new date?",
        ),
        ("user", "March 26 then."),
        (
            "call",
            ("search_rebooking_options", {"origin": "AUS", "destination": "LAX", "date": "2026-03-26"}, OK),
        ),
        ("assistant", "On March twenty-sixth there is a flight arriving at six in the evening."),
        *END,
    ],
    "A4 a first-turn code misheard": rebooked("ZK3FFV", "Z K three F F W", "ZK3FFW"),
    "A5 a first-turn code wrong": rebooked("ZK3FFW", "zulu kilo three foxtrot foxtrot whiskey", "ZK3FFV"),
    "A6 a first-turn status for today": first_turn_status(
        "SK621", "Hi, is flight six twenty one on time today?"
    ),
    "A6 the number as said": first_turn_status("621", "Hi, is flight six twenty one on time today?"),
    "A6 the carrier said": first_turn_status(
        "SK621", "Hi, is SkyWay flight S K six twenty one on time today?"
    ),
    "A7 the name verified before a refund": [
        *A_OPEN,
        ("user", "I want to cancel it and get a refund."),
        (
            "assistant",
            "I can do that. For the refund, can you confirm your last name spelling, letter by letter?",
        ),
        ("user", "R O D R I G U E Z."),
        ("assistant", "Thank you. Cancelling now."),
        *END,
    ],
    "I1 a second request": [
        *I_OPEN,
        ("user", "I have one more request too, for a monitor."),
        ("assistant", "Sure. What is your other request I D?"),
        ("user", "R E Q six seven eight nine zero."),
        ("call", ("get_request_status", {"request_id": "REQ67890"}, OK)),
        ("assistant", "That one is approved."),
        *END,
    ],
    "I2 a coworker's ID": [
        *I_OPEN,
        ("user", "My coworker also needs access, can you look her up?"),
        ("assistant", "Sure, I can. What is your coworker employee I D?"),
        ("user", "E M P zero five five five one two."),
        ("call", ("get_employee_record", {"employee_id": "EMP055512"}, OK)),
        ("assistant", "Found her."),
        *END,
    ],
    "I3 the caller corrects its request ID": [
        *I_OPEN,
        ("user", "Hmm, that is not the one. I think I gave you my old request number."),
        ("assistant", "No problem. What is your correct request I D?"),
        ("user", "R E Q five four three two one."),
        ("call", ("get_request_status", {"request_id": "REQ54321"}, OK)),
        ("assistant", "That one is approved."),
        *END,
    ],
    "M1 a second shift": [
        *M_OPEN,
        ("user", "I actually need to swap two shifts. The other one is the week after."),
        ("assistant", "Sure. What is your second shift I D?"),
        ("user", "S H F four four five five six."),
        ("call", ("get_shift_record", {"employee_id": "EMP126225", "shift_id": "SHF44556"}, OK)),
        ("assistant", "I see that one on June twenty-first."),
        *END,
    ],
    "M2 the shift ID matched before the swap": [
        *M_OPEN,
        ("user", "Yes, that one."),
        (
            "assistant",
            "Before I submit the swap, please read me your shift I D one more time so I can match it?",
        ),
        ("user", "S H F one one two two three."),
        ("assistant", "Thanks, submitting."),
        *END,
    ],
}
"""The reviewer's 14 ordinary conversations, which a person rates 3 (version 6 before its mend
rated 9 of them 2)."""


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_conversations_are_rated_3(name: str) -> None:
    assert reasks(ORDINARY[name]) == 0
    assert rated(ORDINARY[name]) == 3


A_BACK: Step = ("user", "Z K three F F W, Rodriguez.")
I_BACK: Step = ("user", "E M P zero four eight two seven one, last four seven two nine four.")
M_BACK: Step = ("user", "three seven four six three one seven two one three")
REWORDED: list[tuple[list[Step], str, Step]] = [
    *(
        (A_OPEN, q, A_BACK)
        for q in (
            "Sorry, what was the passenger's last name again?",
            "Please give me your confirmation number one more time.",
            "Can I get that confirmation code again?",
            "Could you spell your surname again?",
            "Sorry, could you give me your confirmation number again?",
        )
    ),
    *(
        (I_OPEN, q, I_BACK)
        for q in (
            "Sorry, can I get that employee I D once more?",
            "Could you repeat the last four digits of your phone number?",
            "Remind me, what was your I D?",
            "Please tell me your employee I D again.",
            "What is the employee I D on your account again?",
            "What was your request number again?",
        )
    ),
    *(
        (M_OPEN, q, M_BACK)
        for q in (
            "Sorry, what was your N P I number again?",
            "Could you give me your facility code again?",
            "Can you repeat your P I N?",
            "Could you repeat your shift I D?",
        )
    ),
]
"""The reviewer's 15 re-asks worded unlike the bench, each answered with a value a call used (a
person rates each 2: one re-ask); version 6 before its mend caught 4."""


@pytest.mark.parametrize(("opening", "ask", "back"), REWORDED, ids=[q for _, q, _ in REWORDED])
def test_a_reask_is_read_from_the_answer_however_it_is_worded(
    opening: list[Step], ask: str, back: Step
) -> None:
    steps = [*opening, ("assistant", ask), back, *END]
    assert reasks(steps) == 1
    r = conversation_progression(ctx_of(steps), OFF)
    assert r.score == 2 and "information_loss" in r.details["flagged"]


def test_two_reasks_rate_1() -> None:
    again: list[Step] = [
        ("assistant", "Sorry, could you give me your confirmation number again?"),
        ("user", "Z K three F F W."),
        ("assistant", "And could you repeat your last name for me?"),
        ("user", "Rodriguez."),
    ]
    assert reasks([*A_OPEN, *again, *END]) == 2
    assert rated([*A_OPEN, *again[:2], *END]) == 2
    assert rated([*A_OPEN, *again, *END]) == 1


@pytest.mark.parametrize(
    "cut",
    [
        "Also for the form, my employee ID is E M P zero four [likely cut off by assistant]",
        "[user interrupts] Also for the form, my employee ID is E M P zero four",
        "Also for the form, my employee ID is E M P zero four...",
    ],
)
def test_a_reask_after_a_caller_line_cut_off_is_no_flag(cut: str) -> None:
    """The interruption tags are read from the raw trace content (the judges' texts have them
    stripped)."""
    ask: list[Step] = [("assistant", "Sorry, could you repeat your employee I D?"), I_BACK]
    assert reasks([*I_OPEN, ("user", cut), *ask, *END]) == 0
    assert reasks([*I_OPEN, ("user", "Also I need it for the form."), *ask, *END]) == 1


@pytest.mark.parametrize(
    ("ask", "answer"),
    [
        ("Before I cancel, is your last name Rodriguez?", "Yes, Rodriguez."),
        ("Just to confirm, your last name is Rodriguez, right?", "Yes, Rodriguez."),
        ("Before I make the change, is your confirmation number Z K three F F W?", "Yes, Z K three F F W."),
        ("Is there anything else I can help you with?", "Yes, for Z K three F F W I want a window seat."),
        ("Do I have your approval to proceed?", "Yes, go ahead with Z K three F F W."),
    ],
)
def test_a_read_back_a_go_ahead_or_an_open_offer_is_no_reask(ask: str, answer: str) -> None:
    assert reasks([*A_OPEN, ("assistant", ask), ("user", answer), *END]) == 0


def test_a_callers_own_question_is_no_answer_to_a_reask() -> None:
    press = ("user", "Can you not just do it with Z K three F F W?")
    assert reasks([*A_OPEN, ("assistant", "I cannot change that flight."), press, *END]) == 0


def test_a_lookup_that_found_nothing_makes_asking_again_disambiguation() -> None:
    miss = ("call", ("get_flight_status", {"confirmation_number": "ZK3FFW"}, NOT_FOUND))
    ask: list[Step] = [("assistant", "Could you give me the code again?"), ("user", "Z K three F F W.")]
    assert reasks([*A_OPEN, miss, *ask, *END]) == 0
    refused = (
        "call",
        ("get_flight_status", {"confirmation_number": "ZK3FFW"}, {"status": "error", "error_type": "locked"}),
    )
    assert reasks([*A_OPEN, refused, *ask, *END]) == 1


def test_a_finished_write_lets_the_next_request_ask_its_facts_but_not_the_callers_identity() -> None:
    """The next request's delivery place may be the same one; the employee ID stays known."""
    where: list[Step] = [
        ("assistant", "Where should the monitor go?"),
        ("user", "Headquarters."),
        ("call", ("check_desk_availability", {"building_code": "Headquarters"}, OK)),
        ("call", ("submit_hardware_request", {"employee_id": "EMP048271", "building": "Headquarters"}, OK)),
        ("assistant", "Submitted. What building should the monitor arm go to?"),
        ("user", "Headquarters."),
    ]
    assert reasks([*I_OPEN, *where, *END]) == 0
    again = [
        ("assistant", "And your employee I D once more?"),
        ("user", "E M P zero four eight two seven one."),
    ]
    assert reasks([*I_OPEN, *where, *again, *END]) == 1


def test_only_the_reasked_dimension_is_flagged_when_the_weighed_counts_rate_3() -> None:
    """A1's second lookup is a benign repeated tool; with a re-ask on top only information_loss
    is flagged."""
    steps = [*ORDINARY["A1 a second booking"][:-2], ("assistant", "Can I get that code again?"), A_BACK, *END]
    r = conversation_progression(ctx_of(steps), OFF)
    assert r.score == 2 and r.details["flagged"] == ["information_loss"]


def test_the_identity_an_auth_tool_used_stays_known_after_a_write() -> None:
    """Airline's auth tool is `get_reservation` (its schema says `tool_type: auth`; its name says
    nothing of it): the confirmation number it used is still known after the rebooking's write."""
    tools = [
        {"name": "get_reservation", "tool_type": "auth"},
        {"name": "rebook_flight", "tool_type": "write"},
    ]
    write: Step = ("call", ("rebook_flight", {"confirmation_number": "ZK3FFW", "flight": "SK703"}, OK))
    again: list[Step] = [("assistant", "Could I have your confirmation number again?"), A_BACK]
    steps = [*A_OPEN, write, *again, *END]
    found = progression.findings(ctx_of(steps, tools))
    assert sum(f["feature"] == "reasked_facts" for f in found) == 1
    assert sum(f["feature"] == "reasked_facts" for f in progression.findings(ctx_of(steps))) == 0


def _parallel(name: str, first: dict[str, Any], second: dict[str, Any], tools: list[dict[str, Any]]) -> Any:
    """Two calls of one tool made together, then their responses: ``first`` answers the first."""
    trace = [
        {"type": "tool_call", "tool_name": name, "parameters": {"id": "A"}, "turn_id": 1},
        {"type": "tool_call", "tool_name": name, "parameters": {"id": "B"}, "turn_id": 1},
        {"type": "tool_response", "tool_name": name, "tool_response": first, "turn_id": 1},
        {"type": "tool_response", "tool_name": name, "tool_response": second, "turn_id": 1},
    ]
    return read_record(trace, tools)


def test_calls_made_together_are_answered_in_the_order_they_were_made() -> None:
    """One reading of the calls for the counts and the re-ask flag: the first response answers the
    first call (the re-ask flag paired them so, the counts' reader paired the latest)."""
    rec = _parallel("get_booking", OK, NOT_FOUND, [])
    assert [(a.call, a.at, a.params["id"], a.failed) for a in rec.answered] == [
        (0, 2, "A", False),
        (1, 3, "B", True),
    ]
    writes = _parallel("rebook_flight", NOT_FOUND, OK, [{"name": "rebook_flight", "tool_type": "write"}])
    assert (writes.writes, writes.written) == ([1], [3])
