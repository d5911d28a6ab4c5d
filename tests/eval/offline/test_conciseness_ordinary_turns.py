"""Ordinary agent turns a person rates 3 (review of conciseness 4, issue 30): read-backs,
confirmations, policy restated under push-back, a code repeated, explanations the caller asked
for, courtesy, and the recap before a closing exchange. Each is rated by the shipped method at
its place in a small call, mid-call and before the closing; one turn holding two kinds of one
EVA mode (said again and filler) is rated 2, as EVA's "one minor failure mode"."""

from __future__ import annotations

from typing import Any

import pytest

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline._ordinal import shipped_model
from voxbench.eval.offline.conciseness import rate_with

Line = tuple[str, str]
GREET: Line = ("assistant", "Thanks for calling, how can I help you today?")
MID: list[Line] = [("user", "And what about my seat?"), ("assistant", "Your seat stays the same.")]
END: list[Line] = [("user", "Okay, thanks, that's all."), ("assistant", "You're welcome, goodbye.")]

# (lines, turn rated): "call" lines are a tool called in the turn, answered with success
ORDINARY: dict[str, tuple[list[Line], int]] = {
    "read-back for confirmation": ([GREET, ("user", "I need to change my flight to Friday."), ("call", "get_reservation"),
        ("assistant", "I found your reservation. The Friday flight from Denver to Chicago leaves at nine fifteen in the morning."),
        ("user", "Hmm, okay."),
        ("assistant", "Just to confirm, you want the Friday flight from Denver to Chicago at nine fifteen in the morning. Shall I go ahead?")], 2),
    "confirmation after a write": ([GREET, ("user", "Move me to the Friday flight."),
        ("assistant", "I'll move you to the Friday flight from Denver to Chicago leaving at nine fifteen in the morning. Shall I go ahead?"),
        ("user", "Yes."), ("call", "rebook_flight"),
        ("assistant", "Done. You're now on the Friday flight from Denver to Chicago leaving at nine fifteen in the morning.")], 2),
    "policy restated with a question": ([GREET, ("user", "I want to change my basic economy ticket."),
        ("assistant", "I'm sorry, but basic economy fares cannot be changed or refunded under our fare rules."),
        ("user", "But I really need to change it, my mother is in the hospital."),
        ("assistant", "I'm very sorry to hear about your mother. Basic economy fares cannot be changed or refunded under our fare rules, but I can check whether a travel waiver applies. Would you like me to check?")], 2),
    "policy restated under push-back": ([GREET, ("user", "I want to change my basic economy ticket."),
        ("assistant", "Basic economy fares cannot be changed or refunded under our fare rules."),
        ("user", "But I really need to change it, my mother is in the hospital."),
        ("assistant", "I'm so sorry to hear that. Unfortunately basic economy fares cannot be changed or refunded under our fare rules. I can check for a travel waiver if you like.")], 2),
    "a code repeated on purpose": ([GREET, ("user", "Rebook me on the next flight."), ("call", "rebook_flight"),
        ("assistant", "You're booked on the next flight. Your new confirmation code is K7MD2Q."),
        ("user", "Got it. Can I also add a bag?"),
        ("assistant", "Your new confirmation code is K7MD2Q. Yes, I can add a checked bag for thirty five dollars. Would you like that?")], 2),
    "why a fee was charged": ([GREET, ("user", "Why was I charged a fee for my change?"), ("call", "get_reservation"),
        ("assistant", "The system applies a change fee automatically when a flight is moved within seven days of departure, which is what happened here.")], 1),
    "apology then a question": ([GREET, ("user", "My laptop won't connect to the VPN."),
        ("assistant", "I'm really sorry about the trouble, I know how frustrating that can be. Could you tell me your employee ID?")], 1),
    "an explanation in other inflections": ([GREET, ("user", "Can you schedule the laptop replacement for Monday?"), ("call", "get_asset"),
        ("assistant", "Typically replacements get scheduled only after the old device has been returned to the asset team and inspected.")], 1),
    "an answer after let me check": ([GREET, ("user", "How long does a password reset take to work everywhere?"),
        ("assistant", "Let me check that for you."), ("user", "Sure, go ahead."), ("call", "get_troubleshooting_guide"),
        ("assistant", "Normally a new password takes effect in email right away, while the other applications pick it up within about fifteen minutes.")], 2),
    "status after the ticket was opened": ([GREET, ("user", "Please open a ticket for my broken monitor."),
        ("assistant", "I'll open a ticket for the broken monitor at your desk on the third floor. Is that correct?"),
        ("user", "Yes."), ("call", "create_ticket"),
        ("assistant", "I've opened the ticket for the broken monitor at your desk on the third floor. The ticket number is INC four four one two.")], 2),
    "courtesy and a question": ([GREET, ("user", "Thanks, that fixed it!"),
        ("assistant", "I'm really glad to hear that everything is working well for you now. Is there anything else I can help you with today?")], 1),
    "assurance and an instruction": ([GREET, ("user", "Will I lose my files?"), ("call", "get_case"),
        ("assistant", "I want to make sure we get everything right before we go ahead with the reimage. Your files on the shared drive are safe, and I'd recommend backing up anything saved on your desktop first.")], 1),
    "next steps and thanks for patience": ([GREET, ("user", "Okay, so what happens now?"), ("call", "create_ticket"),
        ("assistant", "I have created the ticket and the hardware team will reach out to you. I know this is not ideal, and I really appreciate your patience while we sort it out.")], 1),
    "read-back of the caller's license": ([GREET, ("user", "I need to update my nursing license, number RN seven seven four two, expiring June thirtieth."),
        ("assistant", "Thank you. I have license number RN seven seven four two, expiring June thirtieth."),
        ("user", "Right."),
        ("assistant", "Thank you. I have license number RN seven seven four two, expiring June thirtieth. Before I update it, I need to verify your identity. What is your date of birth?")], 2),
    "a policy the caller asked about": ([GREET, ("user", "Why can't I take leave that week?"), ("call", "get_blackout_dates"),
        ("assistant", "The system blocks leave requests during department blackout periods, which are set by unit managers to maintain safe staffing levels.")], 1),
    "an explanation in irregular forms": ([GREET, ("user", "How does that work with my pay?"), ("call", "get_leave_policy"),
        ("assistant", "Generally, the leave is unpaid, though accrued paid time off can be applied toward it at the employee's choice.")], 1),
    "a booking reaffirmed to a worried caller": ([GREET, ("user", "Book me with Dr. Patel."), ("call", "book_appointment"),
        ("assistant", "Your appointment with Doctor Patel is booked for Tuesday morning at the occupational health clinic."),
        ("user", "Oh good, I was worried it would be weeks away."),
        ("assistant", "I understand. Your appointment with Doctor Patel is booked for Tuesday morning at the occupational health clinic, so it's very soon.")], 2),
    "reassurance to a nervous caller": ([GREET, ("user", "I'm nervous about the return-to-work process."),
        ("assistant", "That's completely understandable, and I want you to know it's a very common feeling. I'm happy to help make this as easy as possible for you.")], 1),
}  # fmt: skip
RECAP: tuple[list[Line], int] = ([GREET, ("user", "Change my seat to an aisle."), ("call", "update_seat"),
    ("assistant", "Your seat on flight four twelve to Boston has been changed to aisle seat fourteen C."),
    ("user", "Great. Is there anything else I need to do?"),
    ("assistant", "No, there's nothing else. Your seat on flight four twelve to Boston has been changed to aisle seat fourteen C.")], 2)  # fmt: skip


def _ctx(lines: list[Line]) -> ConversationContext:
    trace: list[dict[str, Any]] = []
    turn = 0
    for role, text in lines:
        if role == "user":
            turn += 1
            trace.append({"role": "user", "content": text, "type": "intended", "turn_id": turn})
        elif role == "call":
            trace.append({"type": "tool_call", "tool_name": text, "parameters": {}, "turn_id": turn})
            trace.append({"type": "tool_response", "tool_name": text, "tool_response": {"status": "success"},
                          "turn_id": turn})  # fmt: skip
        else:
            trace.append({"role": "assistant", "content": text, "type": "intended", "turn_id": turn})
    return ConversationContext(record_id="ordinary", conversation_trace=trace)


def _rating(lines: list[Line], turn: int) -> tuple[int, list[str]]:
    res = rate_with(_ctx(lines), shipped_model("conciseness"))
    return res.details["per_turn_rating"][turn], res.details["per_turn_failure_modes"][turn]


@pytest.mark.parametrize("name", sorted(ORDINARY))
@pytest.mark.parametrize("after", ["closing", "mid-call"])
def test_an_ordinary_turn_is_rated_3(name: str, after: str) -> None:
    lines, turn = ORDINARY[name]
    assert _rating(lines + (MID if after == "mid-call" else []) + END, turn) == (3, [])


def test_the_recap_before_the_closing_exchange_is_rated_3() -> None:
    lines, turn = RECAP
    assert _rating(lines + END, turn) == (3, [])


def test_said_again_with_filler_is_one_minor_mode() -> None:
    lines: list[Line] = [GREET, ("user", "Add a bag please."),
        ("assistant", "I've looked at your reservation for the morning flight to Boston on Friday."), ("user", "Okay."),
        ("assistant", "Honestly, I am really very happy and glad that I could help you with this. "
                      "I've looked at your reservation for the morning flight to Boston on Friday. "
                      "A bag is thirty dollars. Thanks so much, I truly appreciate it and I hope that helps.")]  # fmt: skip
    assert _rating(lines + MID + END, 2) == (2, ["verbosity_or_filler"])
