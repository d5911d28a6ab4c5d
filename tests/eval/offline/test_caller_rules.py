"""The caller rules added for the validation gate (issue 36): a fact withheld when asked, a
request outside the goal, one line in another language; and what does not count (sympathy is
not a stall, a date said in parts is not invented)."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, context, lookup

GOAL: dict[str, Any] = {
    "high_level_user_goal": "Cancel your flight ZK3FFW and get a refund.",
    "decision_tree": {"escalation_behavior": "Do not ask to speak to a supervisor or live agent."},
    "information_required": {"Booking confirmation number": "ZK3FFW", "Passenger last name": "Rodriguez",
                             "Travel date": "2026-04-22"},
}  # fmt: skip


def _rate(events: list[dict[str, Any]]) -> list[str]:
    ctx = context(events, user_goal=GOAL, conversation_ended_reason="end_call", simulator_ended_call=True)
    return list(user_behavioral_fidelity_offline(ctx).details["detected"])


def test_withheld_fact() -> None:
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("Sure. What is your confirmation number?"), U("Sorry, I don't know it."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == ["missing_information"]
    events[3] = U("It's Z K three F F W.")
    assert _rate(events) == []


def test_a_field_the_agent_only_states_is_not_asked() -> None:
    """Live: 'I'll check the flight on April 22. Could you tell me the seat code?' answered 'I
    don't have that.': the caller has no seat code; the travel date was stated, not asked."""
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("I'll check your flight on the travel date you gave. Could you tell me the seat code?"),
              U("I'm afraid I don't have that."), A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == []
    events[2] = A("Thanks. Could you please confirm the travel date for me?")
    assert _rate(events) == ["missing_information"]
    events[2] = A("I have the travel date as April 22 and the last name Rodriguez. Is that correct?")
    assert _rate(events) == ["missing_information"]  # a confirmation asks about what it read back


def test_another_attribute_of_a_thing_a_fact_names_is_not_withheld() -> None:
    """Live: "What's the current model of the laptop?" to a caller holding only `laptop_size`
    was taken as asking for its size; the caller's "I don't have that" discarded the call. The
    same words asking for the field itself are still a withheld fact."""
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("Okay. What's the current model of the travel booking?"), U("I don't have that, sorry."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == []
    events[2] = A("Okay. What's the travel booking's model?")
    assert _rate(events) == []
    events[2] = A("Okay. What's the date of your travel?")
    assert _rate(events) == ["missing_information"]
    events[2] = A("Okay. What are the last four digits of your booking confirmation number?")
    assert _rate(events) == ["missing_information"]


LAPTOP: dict[str, Any] = {
    "high_level_user_goal": "Order a replacement laptop.",
    "information_required": {
        "employee_id": "EMP204817",
        "laptop_size": "14-inch",
        "delivery_building": "Harbor",
    },
}


def _asked(question: str, reply: str) -> list[str]:
    events = [A("Hi, how can I help?"), U("I need a new laptop."), A(question), U(reply),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=LAPTOP, conversation_ended_reason="end_call", simulator_ended_call=True)
    return list(user_behavioral_fidelity_offline(ctx).details["detected"])


def test_an_identifier_of_the_thing_is_not_the_field() -> None:
    """A generic head word with a distinctive one before it ("serial number", "asset tag")
    asks for the thing's identifier, not `laptop_size`; a generic head alone ("the number of
    your employee") or a part ("the last four digits") still asks for the field."""
    assert _asked("What's the serial number of the laptop?", "I don't have that, sorry.") == []
    assert _asked("Okay. What's the laptop's asset tag?", "I don't know that.") == []
    assert _asked("And what's the id of your employee?", "Sorry, I don't know it.") == ["missing_information"]
    assert _asked("What are the last four digits of your employee ID?", "I'm not sure.") == [
        "missing_information"
    ]


def test_another_attribute_asked_beside_the_thing() -> None:
    """No "X of the Y": the thing named beside a "which X" question ("For the laptop, which
    model is it?"); "which size" asks the field, and "which building" another of its facts."""
    assert _asked("For the laptop, which model is it?", "I don't have that, sorry.") == []
    assert _asked("Okay, the laptop. Do you know which version it is?", "I don't know that.") == []
    assert _asked("For the laptop, which size is it?", "Sorry, I don't know it.") == ["missing_information"]
    assert _asked("For the laptop, which building should it go to?", "I'm not sure.") == [
        "missing_information"
    ]


def test_the_head_of_a_thing_named_in_the_sentence_before() -> None:
    """The line names the thing in a sentence that does not ask ("Okay, the employee.") and its
    question asks the field's head word ("which ID it is"): the field is asked, also when the
    caller said it before (asked again, it still holds it); another word asked is not."""
    events = [A("Hi, how can I help?"), U("I need a new laptop. My employee ID is EMP204817."),
              A("Okay, the employee. Do you know which ID it is?"), U("Sorry, I don't know it."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=LAPTOP, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["missing_information"]
    assert _asked("Okay, the employee. Do you know which team it is?", "I don't know that.") == []


def test_held_and_unheld_asked_at_once() -> None:
    """The held field and another attribute in one question: giving the one and lacking the
    other is no fault, lacking both withholds the held one."""
    for q in ("What's your laptop size and its model?", "What's the model of the laptop, and its size?"):
        assert _asked(q, "It's 14-inch. I don't have the model, sorry.") == []
        assert _asked(q, "I don't have either of those, sorry.") == ["missing_information"]


def test_an_email_ending_a_sentence_is_the_callers() -> None:
    """The full stop after an email the caller holds is no part of it (read as
    "...@gmail.com." it was an email not among its facts)."""
    goal = {"information_required": {"Email address": "mark.lewis@gmail.com"}}
    events = [A("Hi, how can I help?"), U("I need to change my flight."), A("What's your email address?"),
              U("It's mark.lewis@gmail.com. Thanks."), A("Thank you, goodbye."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == []


def test_withheld_request() -> None:
    """Asked for its next request, the caller says it does not have it."""
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("Your cancellation is done. What's your next request?"), U("I don't have that with me right now."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == ["missing_information"]
    events[3] = U("That's all, thank you.")
    assert _rate(events) == []


def test_request_outside_the_goal() -> None:
    events = [*lookup(), U("Yes. While I have you, I'd also like to update the mailing address on my account."),
              A("That is done. Anything else?"), U("No, bye.")]  # fmt: skip
    assert _rate(events) == ["extra_modifications"]
    events[5] = U("Yes. Can you also confirm the refund goes to my card?")
    assert _rate(events) == []
    events[5] = U("Yes. Could you also send me the cancellation confirmation by email?")
    assert _rate(events) == []


def test_one_line_in_another_language() -> None:
    events = [*lookup(), U("Sí, claro. ¿Puede ayudarme con eso, por favor? Lo necesito para hoy."),
              A("That is done. Anything else?"), U("No, bye.")]  # fmt: skip
    assert _rate(events) == ["wrong_language"]


def test_sympathy_is_not_a_stall_and_a_date_said_in_parts_is_not_invented() -> None:
    events = [A("Hi, how can I help?"),
              U("My flight on twenty twenty-six dash zero four dash two two, code Z K three F F W."),
              A("Sorry to hear about the trouble. What is the passenger's last name?"), U("Never mind, bye.")]  # fmt: skip
    assert _rate(events) == ["premature_ending"]


def test_a_further_request_whose_action_and_object_the_goal_never_pairs() -> None:
    """Each word is familiar ("change" from the task, "phone number" from a verification
    question), the request is not: the goal never pairs them."""
    goal = {**GOAL, "high_level_user_goal": "Change your flight ZK3FFW to an earlier date.",
            "information_required": {**GOAL["information_required"], "Phone number": "555-0134"}}  # fmt: skip
    events = [A("Hi, how can I help?"), U("I want to change my flight."),
              A("Sure. What is your confirmation number and the phone number on file?"),
              U("Z K three F F W, and five five five zero one three four. While I have you, can you also "
                "change the phone number you have on file to my work line?"),
              A("Done. Anything else?"), U("No, bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["extra_modifications"]


def test_withheld_fact_named_by_its_kind() -> None:
    """The question names no field distinctly ("what date?"); the one fact not yet said whose
    field shares a word with it is the one asked for."""
    goal = {**GOAL, "information_required": {"Booking confirmation number": "ZK3FFW",
                                             "date_constraint_earliest_departure": "2026-12-26"}}  # fmt: skip
    events = [*lookup(), U("No, I want to move it instead."), A("Sure. What date would you like to travel?"),
              U("Hmm, I'm not sure."), A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["missing_information"]


def test_a_refusal_followed_by_the_agents_next_step_is_still_progressing() -> None:
    events = [*lookup(), U("No, I'd rather move it to tomorrow, free of charge."),
              A("I can't waive the change fee for a voluntary change. Shall I look at tomorrow's flights "
                "with the seventy-five dollar fee?"),
              U("Forget it, I don't have time for this right now. Bye.")]  # fmt: skip
    assert _rate(events) == ["premature_ending"]
    events[-2] = A("I can't waive the change fee for a voluntary change, sorry.")
    assert _rate(events) == []


def test_a_compound_ordinal_date_and_an_abbreviation_before_i_are_not_invented() -> None:
    """ "September twenty ninth" is the 29th (the normaliser reads "twenty" and leaves
    "ninth"); "the N P I I want" is the abbreviation NPI and the pronoun, not a code NPII."""
    from voxbench.eval.offline._values import spoken_values

    assert "d:0929" in {v.key for v in spoken_values("September twenty ninth, twenty twenty six.")}
    goal = {**GOAL, "information_required": {**GOAL["information_required"], "npi": "3225231724",
                                             "preferred_date": "2026-09-29"}}  # fmt: skip
    events = [A("Hi, how can I help?"), U("I want to move my N P I review."),
              A("Sure. What date would you prefer?"), U("September twenty ninth, twenty twenty six."),
              A("That is booked. Is that the N P I on file?"), U("Yes, that's the N P I I want to use."),
              A("Done. Anything else?"), U("No, bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == []


def test_a_fact_said_in_parts_is_said_and_an_option_read_out_is_still_held() -> None:
    """The birth date given digit by digit is said, so "what date would you prefer?" asks for
    the preferred date; the agent reading out "ten AM" as an option does not give the caller's
    preferred time away."""
    goal = {**GOAL, "information_required": {"date_of_birth": "1998-11-22", "preferred_date": "2026-06-15",
                                             "preferred_time": "10:00 AM"}}  # fmt: skip
    events = [A("Hi, how can I help?"), U("My date of birth is one nine nine eight, one one, two two."),
              A("Thanks, you're verified. What date would you prefer for your appointment?"),
              U("Sorry, I don't know it."), A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["missing_information"]
    events[2:4] = [A("I have ten AM, eleven AM and two PM on June fifteenth. Which time would you like?"),
                   U("I can't remember it, sorry.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["missing_information"]


def test_a_field_asked_as_a_third_persons_is_not_the_callers() -> None:
    """A question putting "his", "her" or "their" before a field's words asks for another person's
    field: a caller holding only its own confirmation number withholds nothing when it says it
    does not have his. The caller's own field, or a pronoun before other words, is still asked."""
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("Sure. What is his booking confirmation number?"), U("I don't have his, sorry."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == []
    events[2] = A("Sure. Could you give me their travel date?")
    assert _rate(events) == []
    events[2] = A("Sure. What is your booking confirmation number?")
    assert _rate(events) == ["missing_information"]
    events[2] = A("I'll check her flight too. What is your booking confirmation number?")
    assert _rate(events) == ["missing_information"]


def test_a_request_asked_after_another_attribute_of_a_held_thing() -> None:
    """Live (EVA itsm 39): a line naming another attribute of a thing a field names ("the
    laptop's charger", not `laptop_size`) and then asking the caller's next request: no field
    is asked, but the request still is; withholding it is still read."""
    q = "Your laptop is ordered. Please ship back the laptop's charger. What's your second hardware request?"
    assert _asked(q, "I don't have that, sorry.") == ["missing_information"]
    assert _asked(q, "That's all, thank you.") == []


def test_which_one_asks_for_no_field_the_line_mentions() -> None:
    """Live (EVA itsm 19, 81, medical_hr D3.1): "Which one would you like?" / "What's the second
    one?" after a line that only states fields was read as asking the field the line mentions.
    A part word ("one") is no head of a field, and the named thing is read only from the
    sentence just before the question."""
    assert (
        _asked("I have the laptop for your building ready. Which one would you like?", "I don't know.") == []
    )
    assert _asked("Your employee ID is verified. You mentioned two requests. What's the second one?",
                  "I'm not sure.") == []  # fmt: skip
    assert _asked("Okay, the employee. Do you know which ID it is?", "I don't know that.") == [
        "missing_information"
    ]


def test_a_pronoun_gives_another_person_only_the_words_it_modifies() -> None:
    """ "her" owns the words right after it ("her name"), not the caller's field a "your" names
    later in the sentence; a pronoun in a sentence that does not ask ("I'll add her booking
    afterwards") owns nothing asked."""
    events = [A("Hi, how can I help?"), U("I want to cancel my flight."),
              A("Sure. Could I have her name and your booking confirmation number?"), U("I don't have that, sorry."),
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    assert _rate(events) == ["missing_information"]
    events[2] = A("Sure. What's your confirmation number? I'll add her booking afterwards.")
    assert _rate(events) == ["missing_information"]
    events[2] = A("Sure. What is her new booking confirmation number?")
    assert _rate(events) == []


def test_a_relative_which_asks_nothing() -> None:
    """ "which" after a comma with a verb after it starts a relative clause ("the fourteen inch
    size, which weighs less"), not a question about another attribute ("weighs less"): the
    size is asked."""
    q = "Do you want the fourteen inch size, which weighs less, or the sixteen inch size?"
    assert _asked(q, "I'm not sure.") == ["missing_information"]
    assert _asked("For the laptop, which model is it?", "I don't have that, sorry.") == []


def test_an_attribute_of_the_issue_is_no_request() -> None:
    """ "What's the issue's model number?" asks another attribute of the issue the caller holds,
    not its request ("what's the issue?"): lacking it withholds nothing."""
    goal = {
        "information_required": {"employee_id": "EMP204817", "issue_description": "Laptop screen flickers"}
    }
    events = [A("Hi, how can I help?"), U("My laptop screen flickers."), A("Okay. What's the issue's model number?"),
              U("I don't know that."), A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == []


def test_the_one_date_whose_words_the_question_says() -> None:
    """Live (EVA medical_hr T4.2): "What date would you prefer?" with several unsaid date facts
    asks for `preferred_date`, the one whose words it says ("prefer" for "preferred")."""
    goal = {"information_required": {"leave_start_date": "2026-08-03", "pto_start_date": "2026-07-27",
                                     "preferred_date": "2026-09-28"}}  # fmt: skip
    events = [A("Hi, how can I help?"), U("I need to schedule my return-to-work check-in."),
              A("It must be on or after September twenty-fifth. What date would you prefer?"),
              U("Hmm, I'm not sure what it is."), A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    assert user_behavioral_fidelity_offline(ctx).details["detected"] == ["missing_information"]
