"""Offline faithfulness on hand-made conversations: each rule fires on its issue, and a
clean call is rated 3."""

from __future__ import annotations

from voxbench.eval.offline import load_all, rate_offline
from voxbench.eval.offline.faithfulness import faithfulness_offline

from . import convs
from .convs import RESERVATION, A, U, call, context, lookup, result

CANCELLED = {"status": "success", "cancellation_fee": 0, "refund_amount": 260}


def _clean() -> list[dict]:
    return [
        *lookup(),
        U("Yes, please cancel it."),
        call("cancel_reservation", confirmation_number="ZK3FFW"),
        result("cancel_reservation", CANCELLED),
        A("Done. Your reservation is cancelled and two hundred sixty dollars goes back to your card."),
    ]


def _rules(res) -> set[str]:
    return {e["rule"] for e in res.details["evidence"]}


def test_clean_call_is_rated_3() -> None:
    res = faithfulness_offline(context(_clean()))
    assert res.score == 3.0 and res.normalized_score == 1.0
    assert res.details["evidence"] == []


def test_refund_amount_no_tool_returned_fails() -> None:
    events = _clean()
    events[-1] = A(
        "Done. Your reservation is cancelled and three hundred forty dollars goes back to your card."
    )
    res = faithfulness_offline(context(events))
    assert res.score == 1.0
    ev = res.details["dimensions"]["misrepresenting_tool_result"]["evidence"]
    assert ev and "340" in ev[0]["claim"] and ev[0]["turn"] == 2


def test_write_without_confirmation_fails() -> None:
    events = [*lookup()[:-1], A("One moment."), U("Can you check what the refund would be first?"),
              call("cancel_reservation", confirmation_number="ZK3FFW"), result("cancel_reservation", CANCELLED),
              A("I cancelled it; two hundred sixty dollars will be refunded.")]  # fmt: skip
    res = faithfulness_offline(context(events))
    assert res.score == 1.0
    assert "write tool run without the caller's explicit confirmation" in _rules(res)


def test_undisclosed_fee_fails() -> None:
    events = _clean()
    events[-2] = result(
        "cancel_reservation", {"status": "success", "cancellation_fee": 100, "refund_amount": 160}
    )
    events[-1] = A("Done, it is cancelled and one hundred sixty dollars comes back to you.")
    res = faithfulness_offline(context(events))
    assert res.score == 1.0
    assert any("not disclosed" in r for r in _rules(res))


def test_placeholder_parameter_on_a_lookup_is_minor() -> None:
    events = [A("Hi, how can I help?"), U("I need to change my flight."),
              call("get_reservation", confirmation_number="UNKNOWN", last_name="UNKNOWN"),
              result("get_reservation", {"status": "error", "error_type": "not_found", "message": "not found"}),
              A("Could you give me your confirmation code and last name?")]  # fmt: skip
    res = faithfulness_offline(context(events))
    assert res.score == 2.0
    assert res.details["dimensions"]["fabricating_tool_parameters"]["rating"] == 2


def test_code_nobody_said_in_a_write_is_major() -> None:
    events = _clean()
    events[-3] = call("cancel_reservation", confirmation_number="QX7PLM")
    res = faithfulness_offline(context(events))
    assert res.score == 1.0
    assert res.details["dimensions"]["fabricating_tool_parameters"]["rating"] == 1


def test_invented_policy_and_gate_fail() -> None:
    events = [*lookup()[:-1], A("Per our guidelines, all passengers receive complimentary lounge access. "
                                "Your flight leaves from gate C twelve. Shall I cancel it?")]  # fmt: skip
    res = faithfulness_offline(context(events))
    assert res.score == 1.0
    assert res.details["dimensions"]["violating_policies"]["flagged"]
    assert any("C12" in e["claim"] for e in res.details["dimensions"]["hallucination"]["evidence"])


def test_on_time_against_a_delay_fails() -> None:
    delayed = {**RESERVATION, "flight": {"status": "delayed", "delay_minutes": 180}}
    events = [A("Hi."), U("Is my flight Z K three F F W on time? Last name Rodriguez."),
              call("get_reservation", confirmation_number="ZK3FFW", last_name="Rodriguez"),
              result("get_reservation", delayed), A("Good news, your flight is on time.")]  # fmt: skip
    res = faithfulness_offline(context(events))
    assert res.details["dimensions"]["misrepresenting_tool_result"]["rating"] == 1


def test_other_brand_is_minor() -> None:
    events = _clean()
    events[-1] = A(
        "Done. Your Southwest flight is cancelled and two hundred sixty dollars goes back to your card."
    )
    res = faithfulness_offline(context(events))
    assert res.score == 2.0 and res.details["dimensions"]["hallucination"]["rating"] == 2


def test_a_record_reported_found_that_no_lookup_returned_is_a_hallucination() -> None:
    """Make run's bb.2 (1.5B agent): 'I have found your booking. You have a flight from New York
    to Los Angeles ...' with no tool call at all; after a successful lookup the same words are fine,
    and after a failed one they are not."""
    made_up = A("Thank you! I have found your booking. You have a flight from New York to Los Angeles.")
    res = faithfulness_offline(context([U("My code is ZK3FFW, last name Patel."), made_up]))
    assert res.score == 1.0
    ev = res.details["dimensions"]["hallucination"]["evidence"]
    assert ev and ev[0]["rule"] == "record reported found that no tool returned"
    assert faithfulness_offline(context([*lookup(), A("I have found your booking.")])).score == 3.0
    failed = [call("get_reservation", confirmation_number="ZK3FFW", last_name="Patel"),
              result("get_reservation", {"status": "error", "error_type": "not_found"})]  # fmt: skip
    assert faithfulness_offline(context([*failed, A("I've located your reservation.")])).score == 1.0


def test_registered_and_stamped() -> None:
    assert "faithfulness" in load_all()
    res = rate_offline("faithfulness", context(_clean()))
    assert res is not None and res.params["method"] == "offline:claims-rules"
    assert res.params["confidence"] == "medium"  # "low" without a policy to check against


def _charged(told: str, consent: str = "Yes, please cancel it.") -> list[dict]:
    """The lookup, the agent's words before the write, the caller's go-ahead, a $100 fee."""
    return [*lookup()[:-1], A(told), U(consent), call("cancel_reservation", confirmation_number="ZK3FFW"),
            result("cancel_reservation", {"status": "success", "cancellation_fee": 100, "refund_amount": 160}),
            A("Done, it is cancelled and one hundred sixty dollars comes back to you.")]  # fmt: skip


def test_charge_told_in_parts_is_disclosed() -> None:
    told = "There is a sixty dollar fee plus a forty dollar service charge. Shall I cancel it?"
    assert not any("fee" in r or "charge" in r for r in _rules(faithfulness_offline(context(_charged(told)))))


def test_charge_told_at_a_miscalculated_total_is_a_minor_misstatement() -> None:
    res = faithfulness_offline(
        context(_charged("The cancellation costs one hundred four dollars. Shall I cancel?"))
    )
    ev = [e for e in res.details["evidence"] if "slightly different amount" in str(e["rule"])]
    assert ev and ev[0]["rating"] == 2 and ev[0]["dimension"] == "misrepresenting_tool_result"
    assert not any("not disclosed" in r for r in _rules(res))


def test_fee_named_without_its_amount_is_minor() -> None:
    res = faithfulness_offline(context(_charged("A cancellation fee may be deducted. Shall I cancel it?")))
    assert res.score == 2.0 and any("fee named" in r for r in _rules(res))


def test_i_approve_is_a_go_ahead() -> None:
    told = "The cancellation fee is one hundred dollars. Do you approve?"
    res = faithfulness_offline(context(_charged(told, consent="I approve the cancellation and the fee.")))
    assert res.score == 3.0, _rules(res)


def test_a_third_party_sending_is_not_an_offered_capability() -> None:
    events = [*lookup(), A("If your travel agent can send you the code, I can help right away.")]
    assert not any("capability" in r for r in _rules(faithfulness_offline(context(events))))
    events = [*lookup(), A("I can text you the new itinerary if you like.")]
    assert any("capability" in r for r in _rules(faithfulness_offline(context(events))))


def test_asking_to_check_and_read_it_once_more_clarifies_a_failed_lookup() -> None:
    failed = [A("Hi, how can I help?"), U("My code is ZK3FFW, last name Patel."),
              call("get_reservation", confirmation_number="ZK3FFW", last_name="Patel"),
              result("get_reservation", {"status": "error", "error_type": "not_found"})]  # fmt: skip
    asks = A("I'm not finding that booking. Please check that code and read it to me once more, slowly.")
    assert not any("failed lookup" in r for r in _rules(faithfulness_offline(context([*failed, asks]))))
    moves_on = A("I'm not finding that booking. Is there anything else?")
    assert any("failed lookup" in r for r in _rules(faithfulness_offline(context([*failed, moves_on]))))


def test_a_failed_lookup_on_values_from_an_earlier_result_needs_no_clarification() -> None:
    """The flight number came from the reservation, not from the caller: 'no disruption found'
    is an answer to relay, not a mishearing to clear up."""
    events = [*lookup(), call("get_disruption_info", flight_number="SK412"),
              result("get_disruption_info", {"status": "error", "error_type": "not_found"}),
              A("There is no disruption on record for your flight.")]  # fmt: skip
    assert not any("failed lookup" in r for r in _rules(faithfulness_offline(context(events))))


def test_an_action_reported_done_needs_a_write() -> None:
    """'I've cancelled it' with no write is a made-up action (1); after a failed write a
    misrepresented result (1); after a successful write, and 'once I've ...', fine."""
    claim = A("I've cancelled your reservation.")
    res = faithfulness_offline(context([*lookup(), U("Yes, please cancel it."), claim]))
    assert res.score == 1.0 and "action reported done that no write made" in _rules(res)
    failed = [call("cancel_reservation", confirmation_number="ZK3FFW"),
              result("cancel_reservation", {"status": "error", "error_type": "not_allowed"})]  # fmt: skip
    res = faithfulness_offline(context([*lookup(), U("Yes, please cancel it."), *failed, claim]))
    after = [e for e in res.details["evidence"] if e["rule"] == "action reported done after the write failed"]
    assert len(after) == 1  # one finding, not one per rule that sees it
    assert faithfulness_offline(context(_clean())).score == 3.0
    later = A("Once I've cancelled it, the refund goes back to your card. Shall I?")
    assert not any("action reported" in r for r in _rules(faithfulness_offline(context([*lookup(), later]))))


def test_a_code_in_an_example_of_the_format_claims_nothing() -> None:
    ask = A("Please say the code with the dash, for example something like M G H dash zero four B.")
    assert not any("code" in r for r in _rules(faithfulness_offline(context([*lookup(), ask]))))
    said = A("Your new code is M G H dash zero four B.")
    assert any("code" in r for r in _rules(faithfulness_offline(context([*lookup(), said]))))


SCHEMA_TOOLS = [
    *convs.TOOLS,
    {"name": "submit_equipment_request", "tool_type": "write",
     "required_parameters": [{"name": "item", "type": "string", "enum": ["chair", "footrest"]},
                             {"name": "delivery_building", "type": "string"},
                             {"name": "delivery_date", "type": "string"}]},
]  # fmt: skip


def _equipment(
    building: str,
    item: str = "chair",
    when: str = "2026-05-04",
    status: str = "success",
    asked: str = "chair",
) -> list:
    return [
        A("Hi, how can I help you today?"),
        U(f"I need an ergonomic {asked} delivered to East Campus on May fourth."),
        A("An ergonomic chair to East Campus on May fourth. Shall I submit it?"),
        U("Yes, please."),
        call("submit_equipment_request", item=item, delivery_building=building, delivery_date=when),
        result("submit_equipment_request", {"status": status}),
        A("Done."),
    ]


def test_tool_values_are_checked_against_the_schema_and_the_sources() -> None:
    """A write value outside the schema's enum (the tool refused it, or took it though nobody
    named it), an impossible date, or a place nobody named is fabricated (1); what the caller
    said, a short standard code (a state, an airport) and a value outside this schema that the
    tool took and the caller named (another schema version) are not."""
    rate = lambda ev: faithfulness_offline(context(ev, agent_tools=SCHEMA_TOOLS))  # noqa: E731
    assert rate(_equipment("East Campus")).score == 3.0
    for bad in (_equipment("Headquarters"), _equipment("East Campus", when="2026-13-40"),
                _equipment("East Campus", item="desk", status="error")):  # fmt: skip
        res = rate(bad)
        assert res.score == 1.0 and res.details["dimensions"]["fabricating_tool_parameters"]["flagged"]
    assert rate(_equipment("East Campus", item="desk", asked="desk")).score == 3.0  # the tool took it
    invented = rate(_equipment("East Campus", item="XQZV_PLMK"))  # taken, but no source names it
    assert invented.score == 1.0 and invented.details["dimensions"]["fabricating_tool_parameters"]["flagged"]
    assert rate(_equipment("TX")).score == 3.0


def test_done_in_the_passive_or_simple_past_needs_a_write_too() -> None:
    for text in ("Your reservation has been cancelled.", "I cancelled your reservation."):
        res = faithfulness_offline(context([*lookup(), U("Yes, please cancel it."), A(text)]))
        assert res.score == 1.0 and "action reported done that no write made" in _rules(res), text
    plan = A("Your flight is scheduled to depart at two forty-five PM.")
    assert faithfulness_offline(context([*lookup(), plan])).score == 3.0
    status = {
        "status": "success",
        "reservation": {**RESERVATION["reservation"], "flight_status": "cancelled"},
    }
    told = [*lookup()[:2], call("get_reservation", confirmation_number="ZK3FFW"), result("get_reservation", status),
            A("I'm sorry: your flight has been cancelled by the airline.")]  # fmt: skip
    assert not any("action reported" in r for r in _rules(faithfulness_offline(context(told))))


def test_a_clock_time_no_source_gives_is_major() -> None:
    """A departure told at a time no tool returned leaves the caller with a wrong fact (EVA:
    consequential dates and times are a 1); a small count is no duration to add to a time."""
    wrong = A("Your flight S K four one two departs at three oh two PM.")
    res = faithfulness_offline(context([*lookup(), wrong]))
    assert res.score == 1.0 and "clock time no tool result or caller statement gives" in _rules(res)
    right = A("Your flight S K four one two departs at two forty-five PM.")
    assert faithfulness_offline(context([*lookup(), right])).score == 3.0


def test_a_format_sentence_and_an_o_read_as_zero_claim_no_new_code() -> None:
    """A code in a sentence describing a format ("in this format ..., like M G H dash zero four
    B") claims nothing; a read-back that says zero for the caller's letter O is the same sound,
    not an invented code. Another digit is."""
    fmt = A(
        "I need it in this format: letters, dash, two digits and one letter, like M G H dash zero four B."
    )
    assert not any("code" in r for r in _rules(faithfulness_offline(context([*lookup(), fmt]))))
    caller = U("My passport number is J two O seven S three K K V.")
    back = A("I heard document number J two zero seven S three K K V. Is that right?")
    assert faithfulness_offline(context([*lookup(), caller, back])).score == 3.0
    other = A("I heard document number J two eight seven S three K K V. Is that right?")
    assert faithfulness_offline(context([*lookup(), caller, other])).score == 1.0


def test_a_time_the_agent_searched_for_is_no_new_time() -> None:
    """The agent reading back the times it searched with ("from ten AM to eleven thirty AM"
    after start_time 10:00) says what its own call holds; the call is checked by the parameter
    rules."""
    ask = U("A room on June fifth from ten o'clock to eleven thirty, please.")
    search = call("get_reservation", confirmation_number="ZK3FFW", start_time="10:00", end_time="11:30")
    told = A("I found one room on June fifth from ten AM to eleven thirty AM.")
    events = [
        *lookup(),
        ask,
        search,
        result("get_reservation", {"status": "success", "rooms": ["RM301"]}),
        told,
    ]
    assert faithfulness_offline(context(events)).score == 3.0
    shifted = A("I found one room on June fifth from ten AM to eleven forty-seven AM.")
    res = faithfulness_offline(context([*events[:-1], shifted]))
    assert "clock time no tool result or caller statement gives" in _rules(res)


def test_only_a_duration_the_record_holds_shifts_a_known_time() -> None:
    """Arrival = departure + a `duration_minutes` the result returned; a fare or a flight number
    is no duration (taken as one, almost every time would be derivable)."""
    res = {**RESERVATION["reservation"], "total_fare": 260, "segments": [
        {"flight_number": "SK412", "departure_time": "14:45", "duration_minutes": 95}]}  # fmt: skip
    events = [*lookup()[:3], result("get_reservation", {"status": "success", "reservation": res})]
    right = A("Flight S K four one two leaves at two forty-five PM and lands at four twenty PM.")
    assert faithfulness_offline(context([*events, right])).score == 3.0
    fare_shift = A("Flight S K four one two leaves at two forty-five PM and lands at seven oh five PM.")
    res_ = faithfulness_offline(context([*events, fare_shift]))  # 14:45 + the 260 fare as minutes
    assert "clock time no tool result or caller statement gives" in _rules(res_)


def test_a_write_without_the_go_ahead_the_policy_asks_for_is_major() -> None:
    """EVA's rubric: "an irreversible action without the explicit user confirmation that the
    agent's policies require" is a 1, free of charge or not (a rebooking here)."""
    tools = [*convs.TOOLS, {"name": "rebook_flight", "tool_type": "write"}]
    events = [*lookup()[:-1], A("There is a later flight I can move you to."), U("Does it have a meal?"),
              call("rebook_flight", confirmation_number="ZK3FFW"),
              result("rebook_flight", {"status": "success"}), A("Okay.")]  # fmt: skip
    res = faithfulness_offline(context(events, agent_tools=tools))
    ev = [
        e
        for e in res.details["evidence"]
        if e["rule"] == "write tool run without the caller's explicit confirmation"
    ]
    assert ev and ev[0]["rating"] == 1 and res.score == 1.0


def test_a_list_after_a_colon_is_read_apart_from_the_year() -> None:
    """ "on June 5th, 2026: 3:02 PM" is a date then a time, not one code "2026 302"."""
    said = A("I have one slot on June 5th, 2026: three oh two PM.")
    res = faithfulness_offline(context([*lookup(), said]))
    assert "clock time no tool result or caller statement gives" in _rules(res)


def test_a_figure_is_a_fare_difference_plus_a_smaller_fee_only() -> None:
    """(new - old) + fee with the fee smaller than both fares; with any third amount nearly
    every figure would be some difference plus something."""
    fares = {"status": "success", "options": [{"fare": 419}, {"fare": 389}, {"fare": 200}, {"fare": 199}]}
    events = [
        *lookup(),
        call("get_reservation", confirmation_number="ZK3FFW"),
        result("get_reservation", fares),
    ]
    # 30 + the $100 policy fee: told in parts of a change, grounded
    assert (
        faithfulness_offline(context([*events, A("That is one hundred thirty dollars in total.")])).score
        == 3.0
    )
    # (200 - 199) + 389: no fare difference plus a fee
    res = faithfulness_offline(context([*events, A("That is three hundred ninety dollars in total.")]))
    assert res.score == 1.0


def test_short_codes_and_clock_times_in_a_write_need_a_source() -> None:
    """A 3-character code or a clock time written to the system must come from somewhere;
    "floor three" names FL3, "from ten o'clock to eleven thirty" names 10:00 and 11:30."""
    tools = [*convs.TOOLS, {"name": "book_room", "tool_type": "write"}]

    def rate(floor: str, end: str) -> float | None:
        return faithfulness_offline(context([
            *lookup()[:-1],
            U("Book me a room on floor three from ten o'clock to eleven thirty."),
            A("A room on floor three from ten to eleven thirty. Shall I book it?"),
            U("Yes, please."),
            call("book_room", floor_code=floor, start_time="10:00", end_time=end),
            result("book_room", {"status": "success"}),
            A("Done."),
        ], agent_tools=tools)).score  # fmt: skip

    assert rate("FL3", "11:30") == 3.0
    assert rate("PO2", "11:30") == 1.0
    assert rate("FL3", "21:11") == 1.0


def test_a_count_before_an_acronym_the_caller_used_is_no_code() -> None:
    ask = U("I've got a couple of IT issues.")
    said = A("Sure. What are the two I T issues?")
    assert faithfulness_offline(context([*lookup(), ask, said])).score == 3.0


def test_an_action_reported_done_after_the_system_refused_it_is_major() -> None:
    """A later write refused, an earlier one done: "Your refund has been processed" right
    after the refusal contradicts the result (1); telling the failure first is fine."""
    refused = {"status": "error", "error_type": "request_rejected", "message": "could not be processed"}
    events = [*_clean()[:-1], call("process_refund", confirmation_number="ZK3FFW"),
              result("process_refund", refused)]  # fmt: skip
    res = faithfulness_offline(context([*events, A("Your refund has been processed.")]))
    assert res.score == 1.0 and res.details["dimensions"]["misrepresenting_tool_result"]["flagged"]
    told = A("Unfortunately the refund could not be processed. Your reservation has been cancelled.")
    assert faithfulness_offline(context([*events, told])).score == 3.0


def test_only_whole_duration_words_name_a_duration_field() -> None:
    """'admins' and 'waitlist_position' hold no duration: only a field whose name has a duration
    word, whole or plural, shifts a known clock time."""
    from voxbench.eval.offline._faith_times import field_durations

    got = field_durations({"admins": 25, "waitlist_position": 30, "delay_minutes": 45, "layoverDuration": 50})
    assert got == {45, 50}
    assert field_durations({"flights": [{"delays": 70, "seats": 2}]}) == {70}
