"""An invitation to say what else the caller needs joins what it may have by 'or' ("Please let me
know if you have any specific questions or need any assistance."): no options to pick among, an
anything-else turn (live medical_hr/D9.1: "I'll take Please let me know if you have any.", six times)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.classify import classify

from .conftest import make_scenario, opened

INFO = {"employee_id": "EMP012345", "document_number": "J2O7S3KKV"}


def _scenario():  # type: ignore[no-untyped-def]
    return make_scenario(
        INFO, goal="You want to submit your I-9 documents.", intents=["Submit I-9 documents"]
    )


@pytest.mark.parametrize(
    "turn",
    [
        "Please let me know if you have any specific questions or need any assistance.",
        "Let me know if you have questions or concerns.",
        "Let us know if you need help or have any other questions.",
        "Please let me know if you have any additional questions or need further help.",
        "Please let me know if there are any questions or issues.",
        "Let me know if you've got any questions or need a hand.",
    ],
)
def test_an_invitation_is_no_choice_and_gets_the_open_request(turn: str) -> None:
    c = opened(_scenario())
    heard = classify(turn, c.s.book, c.s.given, None)
    assert not heard.options and heard.has("anything_else")
    act = c.respond(turn)
    assert act.kind == "state_request" and "I-9" in act.text


@pytest.mark.parametrize(
    ("turn", "first"),
    [
        ("Would you like a window or an aisle seat?", "window"),
        ("Let me know if you have any preference: morning or afternoon?", "morning"),
        ("Let me know if you need help choosing: List A or List B?", "List A"),
        ("Let me know if you need any of these: a receipt or a copy of the form?", "receipt"),
    ],
)
def test_real_alternatives_after_let_me_know_stay_a_choice(turn: str, first: str) -> None:
    """Review: a widened cue turned these choices into 'I don't have that'; the invitation is read
    from what each alternative ends on (a help noun), not from the lead."""
    act = opened(_scenario()).respond(turn)
    assert act.kind == "choose" and first in act.text
