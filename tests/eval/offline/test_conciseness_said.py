"""Sentences a listener did not need (`conciseness_said.py`): a statement of the previous turn
said again, filler, background nobody asked for; each kind one minor failure mode (EVA: one
rates a turn 2, more rate it 1), and each left alone where EVA's rubric allows it."""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline._ordinal import shipped_model
from voxbench.eval.offline.conciseness import rate_with
from voxbench.eval.offline.conciseness_said import (
    Said,
    background,
    filler,
    forms,
    is_question,
    is_request,
    not_needed,
    said_again,
    sentences,
)

PREVIOUS = "Your new flight leaves Denver tomorrow morning from gate twelve. Would you like a seat?"
SAID = "Your new flight leaves Denver tomorrow morning from gate twelve."
NEXT = "I have an aisle seat in row nine."
FILLER_A = "Honestly, I am really very happy and glad that I could help you with this."
FILLER_B = "Thanks so much, I truly appreciate it and I hope that helps."
FILLER_C = "Okay, well, I am absolutely delighted and so grateful for your kind words."
BACKGROUND = "Typically the booking platform refreshes seat maps overnight across every partner carrier."


def test_a_statement_of_the_previous_turn_said_again_unasked_is_found() -> None:
    assert said_again(f"{SAID} {NEXT}", PREVIOUS, "Yes, an aisle please.", wrap_up=False) == [SAID]
    # with a word order and a filler word of its own it is still the same statement
    again = "From gate twelve, your new flight leaves Denver tomorrow morning, as said."
    assert said_again(f"{again} {NEXT}", PREVIOUS, "Yes.", wrap_up=False) == [again]


def test_said_again_is_no_fault_where_the_rubric_allows_it() -> None:
    turn = f"{SAID} {NEXT}"
    assert said_again(turn, PREVIOUS, "Sorry, could you repeat that?", wrap_up=False) == []
    assert (
        said_again(turn, PREVIOUS, "Where does my new flight leave from?", wrap_up=False) == []
    )  # an answer
    assert said_again(turn, PREVIOUS, "Okay.", wrap_up=True) == []  # the wrap-up
    assert said_again(turn, PREVIOUS, "Okay.", wrap_up=False, wrote=True) == []  # the action reported done
    assert said_again(turn, PREVIOUS + " [likely cut off by user]", "Wait.", wrap_up=False) == []
    # a new value, a question, a request and a code read out are not said again
    assert said_again(SAID.replace("twelve", "fourteen"), PREVIOUS, "Okay.", wrap_up=False) == []
    assert said_again("Would you like a seat?", PREVIOUS, "Hm.", wrap_up=False) == []
    assert said_again(f"Please note: {SAID}", PREVIOUS, "Okay.", wrap_up=False) == []
    code = "Your code is K seven M D two Q."
    assert said_again(code, code, "Okay.", wrap_up=False) == []


def test_two_filler_sentences_are_filler_one_is_politeness() -> None:
    assert filler(f"{FILLER_A} {NEXT} {FILLER_B}") == [FILLER_A, FILLER_B]
    assert filler(f"{FILLER_A} {NEXT}") == []
    # a sentence with a value or content of its own is no filler
    assert filler(f"{FILLER_A} {NEXT} Your bag allowance carries over to flight twelve automatically.") == []
    # nor is a short courtesy
    assert filler(f"Happy to help. {NEXT} Thanks so much.") == []


def test_background_is_how_things_work_addressed_to_nobody_and_not_asked() -> None:
    assert background(f"{NEXT} {BACKGROUND}", "Okay, go ahead.") == [BACKGROUND]
    # the caller asked about it: the sentence shares the caller's words
    assert background(f"{NEXT} {BACKGROUND}", "When do the seat maps update?") == []
    # addressed to the caller, or short, or with no cue: not background
    assert (
        background("Typically your booking platform refreshes seat maps overnight for partners.", "Ok.") == []
    )
    assert background("Seat maps typically refresh overnight.", "Ok.") == []
    assert background(BACKGROUND.replace("Typically the", "The"), "Ok.") == []


def test_each_kind_is_one_minor_failure_mode_never_above_the_counts() -> None:
    one, two = Said(background=(BACKGROUND,)), Said(again=(SAID,), background=(BACKGROUND,))
    assert (one.rated(3), one.rated(1), two.rated(3), Said().rated(3)) == (2, 1, 1, 3)
    assert two.modes == ["verbosity_or_filler", "contextually_disproportionate_detail"]
    assert not_needed(NEXT, PREVIOUS, "Yes.", wrap_up=False).modes == []
    # said again and filler are one EVA mode, verbosity: 2, not 1
    verbose = Said(again=(SAID,), filler=(FILLER_A, FILLER_B))
    assert (verbose.modes, verbose.rated(3)) == (["verbosity_or_filler"], 2)


def _ctx(lines: list[tuple[str, str]]) -> ConversationContext:
    trace: list[dict[str, Any]] = []
    turn = 0
    for role, text in lines:
        turn += role == "user"
        trace.append({"role": role, "content": text, "type": "intended", "turn_id": turn})
    return ConversationContext(record_id="hand", conversation_trace=trace)


def _rated(third: str, last_caller: str = "Is there a fee for a bag?") -> tuple[int, list[str]]:
    ctx = _ctx([("assistant", "Hi, how can I help?"), ("user", "I need to rebook."),
                ("assistant", PREVIOUS), ("user", "Yes please."), ("assistant", third),
                ("user", last_caller), ("assistant", "The first bag is free. Goodbye.")])  # fmt: skip
    res = rate_with(ctx, shipped_model("conciseness"))
    return res.details["per_turn_rating"][2], res.details["per_turn_failure_modes"][2]


def test_the_method_rates_a_turn_by_the_kinds_it_holds() -> None:
    assert _rated(NEXT) == (3, [])
    rating, modes = _rated(f"{NEXT} {BACKGROUND}")
    assert rating == 2 and modes[0] == "contextually_disproportionate_detail"
    rating, modes = _rated(f"{SAID} {NEXT} {BACKGROUND}")
    assert rating == 1 and set(modes[:2]) == {"verbosity_or_filler", "contextually_disproportionate_detail"}
    assert _rated(f"{FILLER_A} {NEXT} {FILLER_C}")[0] == 2


def test_a_code_written_as_one_token_is_a_code_read_out() -> None:
    code = "Your new confirmation code is K7MD2Q."
    assert said_again(f"{code} {NEXT}", f"You're booked. {code}", "Got it.", wrap_up=False) == []
    assert not sentences("Your ticket number is 48213 and it is open now.")[0].statement
    # an ordinal or a clock time is no code
    assert sentences("Your appointment moved to the 30th at 9AM in the main clinic.")[0].statement


def test_the_ways_callers_ask_to_hear_it_again_and_questions_without_their_mark() -> None:
    for caller in (
        "Sorry?",
        "Sorry, what did you say?",
        "Sorry, you broke up there.",
        "I couldn't hear you.",
    ):
        assert said_again(f"{SAID} {NEXT}", PREVIOUS, caller, wrap_up=False) == [], caller
    assert is_question("wait which gate does my new flight leave from")
    assert is_question("Okay. How long does it take")
    assert not is_question("Okay, that works for me.")


def test_words_match_by_form_dropped_e_and_irregular() -> None:
    assert "change" in forms("changed") and "time" in forms("times") and "pay" in forms("paid")
    why = "Typically flight times get changed when the aircraft assigned to a route is swapped out for maintenance."
    assert background(why, "Why did my departure time change?") == []
    # the caller's question one turn before counts: the answer may follow a "let me check"
    answer = "Normally a new password takes effect in email right away, while other applications take fifteen minutes."
    assert (
        background(answer, "Sure, go ahead.", "How long does a password reset take to work everywhere?") == []
    )
    assert background(answer, "Sure, go ahead.") == [answer]
    # when the caller said something new since, the earlier question is not what the turn answers
    assert background(answer, "My employee ID is four four two one.", "How long does a reset take?") == [
        answer
    ]


def test_restating_after_push_back_or_with_nothing_new_is_not_said_again() -> None:
    rule = "Basic economy fares cannot be changed or refunded under our fare rules."
    turn = f"I'm so sorry to hear that. Unfortunately basic economy fares cannot be changed or refunded under our fare rules. {NEXT}"
    assert (
        said_again(turn, rule, "But I really need to change it, my mother is in the hospital.", wrap_up=False)
        == []
    )
    # a value the caller gives is no push-back on the statement that holds it
    assert said_again(f"{SAID} {NEXT}", PREVIOUS, "Twelve, okay.", wrap_up=False) == [SAID]
    # the turn only reaffirms: nothing new waits behind the repetition
    assert said_again(f"I understand. {SAID}", PREVIOUS, "Oh good, I was worried.", wrap_up=False) == []


def test_content_verbs_are_no_filler_and_courtesy_requests_are_statements() -> None:
    ordinary = (
        "Sure, I can definitely help you get that sorted out right away for you today. "
        "I want to make sure the right person gets this, so I'll go ahead and send it over."
    )
    assert filler(ordinary) == []
    courtesy = "I hope that all makes sense, and please don't hesitate to let me know if anything is unclear."
    assert not is_request(courtesy) and sentences(courtesy)[0].statement
    assert is_request("Please let me know your date of birth.")
    assert is_request("Could you spell the last name for me.")


def test_the_recap_before_a_closing_exchange_is_the_wrap_up() -> None:
    # mid-call the repetition is a minor mode; before "thanks, bye" it is the call's recap
    assert _rated(f"{SAID} {NEXT}")[0] == 2
    assert _rated(f"{SAID} {NEXT}", "Okay, thanks, bye.") == (3, [])


def test_a_statement_with_a_changed_number_word_is_no_repeat() -> None:
    """Every number and month word tells a value (the project's spoken-value words): "the sixth
    of June" after "the fifth of June" says something new, as "fourteen" after "twelve" does."""
    before = "Your new flight departs Denver on the fifth of June in the morning. Would you like a seat?"
    moved = "Your new flight departs Denver on the sixth of June in the morning."
    assert said_again(f"{moved} {NEXT}", before, "Okay.", wrap_up=False) == []
    assert said_again(f"{moved} {NEXT}", before.replace("fifth", "sixth"), "Okay.", wrap_up=False) == [moved]
