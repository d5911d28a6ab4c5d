"""Sentences a listener did not need (`conciseness_said.py`): a statement of the previous turn
said again, filler, background nobody asked for; each kind one minor failure mode (EVA: one
rates a turn 2, more rate it 1), and each left alone where EVA's rubric allows it."""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline._ordinal import shipped_model
from voxbench.eval.offline.conciseness import rate_with
from voxbench.eval.offline.conciseness_said import Said, background, filler, not_needed, said_again

PREVIOUS = "Your new flight leaves Denver tomorrow morning from gate twelve. Would you like a seat?"
SAID = "Your new flight leaves Denver tomorrow morning from gate twelve."
NEXT = "I have an aisle seat in row nine."
FILLER_A = "Honestly, I really just want to make sure that everything goes smoothly for you today."
FILLER_B = "Don't hesitate to reach out whenever, I'm always happy and glad to help."
FILLER_C = "Honestly, I am truly glad and happy that I could help sort all of that out so smoothly."
BACKGROUND = "Typically the booking platform refreshes seat maps overnight across every partner carrier."


def test_a_statement_of_the_previous_turn_said_again_unasked_is_found() -> None:
    assert said_again(f"{SAID} {NEXT}", PREVIOUS, "Yes, an aisle please.", last=False) == [SAID]
    # with a word order and a filler word of its own it is still the same statement
    again = "From gate twelve, your new flight leaves Denver tomorrow morning, as said."
    assert said_again(again, PREVIOUS, "Yes.", last=False) == [again]


def test_said_again_is_no_fault_where_the_rubric_allows_it() -> None:
    turn = f"{SAID} {NEXT}"
    assert said_again(turn, PREVIOUS, "Sorry, could you repeat that?", last=False) == []
    assert said_again(turn, PREVIOUS, "Where does my new flight leave from?", last=False) == []  # an answer
    assert said_again(turn, PREVIOUS, "Okay.", last=True) == []  # the wrap-up
    assert said_again(turn, PREVIOUS, "Okay.", last=False, wrote=True) == []  # the action reported done
    assert said_again(turn, PREVIOUS + " [likely cut off by user]", "Wait.", last=False) == []
    # a new value, a question, a request and a code read out are not said again
    assert said_again(SAID.replace("twelve", "fourteen"), PREVIOUS, "Okay.", last=False) == []
    assert said_again("Would you like a seat?", PREVIOUS, "Hm.", last=False) == []
    assert said_again(f"Please note: {SAID}", PREVIOUS, "Okay.", last=False) == []
    code = "Your code is K seven M D two Q."
    assert said_again(code, code, "Okay.", last=False) == []


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
    assert not_needed(NEXT, PREVIOUS, "Yes.", last=False).kinds == 0


def _ctx(lines: list[tuple[str, str]]) -> ConversationContext:
    trace: list[dict[str, Any]] = []
    turn = 0
    for role, text in lines:
        turn += role == "user"
        trace.append({"role": role, "content": text, "type": "intended", "turn_id": turn})
    return ConversationContext(record_id="hand", conversation_trace=trace)


def _rated(third: str) -> tuple[int, list[str]]:
    ctx = _ctx([("assistant", "Hi, how can I help?"), ("user", "I need to rebook."),
                ("assistant", PREVIOUS), ("user", "Yes please."), ("assistant", third),
                ("user", "Thanks."), ("assistant", "You're welcome. Goodbye.")])  # fmt: skip
    res = rate_with(ctx, shipped_model("conciseness"))
    return res.details["per_turn_rating"][2], res.details["per_turn_failure_modes"][2]


def test_the_method_rates_a_turn_by_the_kinds_it_holds() -> None:
    assert _rated(NEXT) == (3, [])
    rating, modes = _rated(f"{NEXT} {BACKGROUND}")
    assert rating == 2 and modes[0] == "contextually_disproportionate_detail"
    rating, modes = _rated(f"{SAID} {NEXT} {BACKGROUND}")
    assert rating == 1 and set(modes[:2]) == {"verbosity_or_filler", "contextually_disproportionate_detail"}
    assert _rated(f"{FILLER_A} {NEXT} {FILLER_C}")[0] == 2
