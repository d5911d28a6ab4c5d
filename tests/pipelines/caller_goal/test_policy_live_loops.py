"""Goal-caller loops seen in `make run` live calls on 2026-12-04 (built-in airline bb.2, bb.3, the
small local agent), replayed on the same scenarios with the agent's words as the caller's STT
heard them (one agent turn = the transcripts between two caller acts, joined).

* bb.2 (11:38 UTC): the window seat was done ("I have changed your seat preference to window. Do
  you want to add bags?"); the agent asked "Do you want to add bags?" seven more times and the
  caller said "No, thank you." each time, until its stall budget.
* bb.3 (11:42 UTC): the agent told the status ("on time") and a time ("7.30pm"), then asked "Could
  you please let me know what you need?"; the caller restated its whole request seven times.
* bb.3 (11:11 UTC): "the gate is 12, would you like to know more about it?" got the whole request
  again, then "I'm afraid I don't have that."
"""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.learn import Learnings, parts_to_learn
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.stall import Repeats
from voxbench.pipelines.caller.goal_live import goal_caller_for
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.scenarios import load_dataset

from .conftest import make_scenario, opened


def _builtin(sid: str, seed: int = 0) -> GoalCaller:
    dd = load_dataset(None, ["airline"]).domains["airline"]
    c = goal_caller_for(CallScenario.from_domain(dd, sid), seed=seed)
    c.open()
    return c


# bb.3, 11:42 UTC: the agent's turn as heard, twice (STT wrote 'May 20th' once and 'May 20' once)
STATUS_AND_TIME = (
    "Please. I found your booking. It's for a flight from your current location to Denver on May 20th at "
    "7.30pm. The flight status is currently on time. Could you please let me know what you need?"
)
STATUS_AND_TIME_AGAIN = (
    "I found your booking. It's for a flight from Salt Lake City to Denver on May 20 at 7.30pm. The flight "
    "status is currently on time. Could you please let me know what you need?"
)


# -- bb.2: an offer outside the goal once every request is done -----------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_outside_offer_after_the_request_is_done_is_declined_once_and_ends(seed: int) -> None:
    c = _builtin("bb.2", seed)
    c.respond("Sure. I can help you with that. What is your last name?")
    c.respond(
        "Let's look up your booking. Please hold on, could you tell me the confirmation number, please?"
    )
    c.respond(
        "Thank you. I have found your booking. You have a flight from New York to Los Angeles on May 11. "
        "2026. It is a basic economy class flight. You have to check bags. Do you want to change the seat "
        "preference or add bags?"
    )
    act = c.respond("Sure. I can help you with that. Do you prefer window? I'll. Our middle.")
    assert act.choice == "window"
    act = c.respond("I have changed your seat preference to window. Do you want to add bags?")
    assert act.ends_call and act.rule == "offer_outside_goal_all_done_end" and act.choice == "no"
    assert act.text.startswith("No") and "goodbye" in act.text.lower()


def test_the_same_outside_offer_again_after_a_refusal_ends_the_call() -> None:
    """The request still open: the offer is declined once; asked again after only 'I understand.',
    the caller does not say its no a second time."""
    c = _builtin("bb.2")
    first = c.respond("I found your booking. Do you want to add bags?")
    assert first.kind == "refuse" and first.rule == "offer_outside_goal"
    again = c.respond("I'd understand. Do you want to add bags?")
    assert again.ends_call and again.rule == "same_line_again_end"


def test_a_different_question_after_a_refusal_is_answered() -> None:
    c = _builtin("bb.2")
    assert c.respond("I found your booking. Do you want to add bags?").kind == "refuse"
    act = c.respond("I understand. Do you prefer window, aisle, or middle?")
    assert act.choice == "window" and not act.ends_call


# -- bb.3: the part of the question not answered yet ----------------------------------------------


def test_told_the_status_and_a_time_the_caller_asks_only_for_the_gate() -> None:
    c = _builtin("bb.3")
    c.respond("I'll look up your booking. Could you tell me the confirmation number and last name?")
    act = c.respond(STATUS_AND_TIME)
    assert act.kind == "state_request" and act.rule == "ask_what_is_missing" and not act.ends_call
    assert "gate" in act.text and "on time" not in act.text and "departure" not in act.text
    assert not act.facts  # the goal's words, no fact of its own


def test_the_same_turn_again_after_asking_ends_politely_instead_of_asking_again() -> None:
    c = _builtin("bb.3")
    c.respond("I'll look up your booking. Could you tell me the confirmation number and last name?")
    asked = c.respond(STATUS_AND_TIME)
    act = c.respond(STATUS_AND_TIME_AGAIN)
    assert act.ends_call and act.rule == "same_line_again_end" and act.text != asked.text
    assert "goodbye" in act.text.lower()


def test_a_whole_request_is_restated_at_most_once_to_the_same_turn() -> None:
    """Nothing told yet: the request is stated; the same turn again ends the call."""
    c = _builtin("bb.3")
    ask = "I found your booking. It's for a flight to Denver. Could you please let me know what you need?"
    assert c.respond(ask).kind == "state_request"
    assert c.respond(ask).ends_call


def test_a_statement_with_a_question_tagged_on_tells_its_part() -> None:
    """bb.3 11:11 UTC: the status never told, the time and gate told in turns ending in a question."""
    c = _builtin("bb.3")
    act = c.respond(
        "Please. I found your booking. It's for a flight from your home to Denver on May 20th at 7.30 p.m. "
        "What would you like to know about it?"
    )
    assert act.rule == "ask_what_is_missing" and "on time" in act.text and "gate" in act.text
    assert not act.text.startswith("Yes")
    act = c.respond(
        "I found your booking. It's for a flight from Salt Lake City to Denver on May 20 at 7.30pm, the "
        "departure time at 7.30pm in the gate is 12. Would you like to know more about it?"
    )
    assert act.text == "Yes, I still need to know whether today's flight is on time."
    act = c.respond(
        "I found your booking. It's for a flight from Salt Lake City to Denver on May 20th at 7.30pm. The "
        "departure time is 7.30pm and the gate is 12, would you like to know more about it?"
    )
    assert act.ends_call and act.rule == "same_line_again_end"


def test_every_part_told_ends_the_call_with_thanks() -> None:
    """The reference agent's answer (bb.3's trace) got "Okay." before: it names no completion."""
    c = _builtin("bb.3")
    c.respond("Let me check. What's your confirmation code and last name?")
    act = c.respond("Flight BB105 to Denver is on time, leaving at eleven forty-five from gate B7.")
    assert act.ends_call and act.rule == "resolution_end" and "thank" in act.text.lower()


def test_every_part_told_and_an_offer_for_more_declines_and_ends() -> None:
    c = _builtin("bb.3")
    act = c.respond("Your flight is on time. It departs at 11:45 from gate B7. Do you want to add a bag?")
    assert act.ends_call and act.choice == "no"


# -- the parts, read from the scenario's own words ------------------------------------------------


def test_parts_come_from_the_learn_must_haves_only() -> None:
    parts = parts_to_learn(
        ["Learn whether today's flight is on time.", "Learn the departure time and gate.", "Keep your seat."]
    )
    assert [p.text for p in parts] == ["whether today's flight is on time", "the departure time", "the gate"]
    assert parts_to_learn(["One checked bag is added to your flight."]) == []


@pytest.mark.parametrize(
    ("sentence", "told"),
    [
        ("The flight status is currently on time.", {"whether today's flight is on time"}),
        ("Your flight is delayed by twenty minutes.", {"whether today's flight is on time"}),
        ("It leaves at 7.30pm.", {"the departure time"}),
        ("It boards from gate B seven.", {"the gate"}),
        ("The gate is 12.", {"the gate"}),
        ("The gate is 12, is that right?", {"the gate"}),  # a question tagged on: the statement tells
        ("Please go to the gate early.", set()),  # no value after 'gate'
        ("Is your flight on time?", set()),  # a question tells nothing
        ("Let me check whether your flight is on time.", set()),  # the question restated
        ("You'd like to know the departure time and gate.", set()),
    ],
)
def test_a_part_is_told_by_its_value(sentence: str, told: set[str]) -> None:
    learn = Learnings(["Learn whether today's flight is on time.", "Learn the departure time and gate."])
    learn.note(sentence)
    assert {p.text for p in learn.parts if p.told} == told


def test_a_goal_without_a_question_is_unchanged() -> None:
    """No 'Learn ...' must-have: a statement is acknowledged as before, nothing asked for."""
    sc = make_scenario({"last_name": "Lima"}, must=["The new flight departs before 2:00 PM today."])
    c = opened(sc)
    assert not c.learn.parts
    assert c.respond("Your flight is on time and leaves from gate B7.").rule == "acknowledge_statement"


# -- the same-line rule on other acts -------------------------------------------------------------


def test_a_yes_to_the_same_read_back_is_said_twice_not_three_times() -> None:
    """A short 'Yes.' is what the agent's VAD and STT miss most: asked again, said again; a third
    time to the same read-back is a loop."""
    c = _builtin("bb.2")
    ask = "So that's a window seat on your flight from Phoenix to Denver, is that correct?"
    acts = [c.respond(ask) for _ in range(3)]
    assert [a.kind for a in acts[:2]] == ["confirm", "confirm"]
    assert acts[2].ends_call and acts[2].rule == "same_line_again_end"


def test_facts_asked_again_by_the_same_turn_are_given_again() -> None:
    """Fact answers are not cut by the same-line rule at the second ask (the agent's STT may have
    missed them): given again, as a person does ('As I said, ...'); the third time to the same ask
    with nothing moved on, misheard twice, spelled once (:mod:`.hearing`: a person spells before
    giving up); the fourth, the caller gives up (stall.Repeats, test_policy_live_repeats)."""
    c = _builtin("bb.2")
    ask = "Could you tell me the confirmation number and last name, please?"
    acts = [c.respond(ask) for _ in range(4)]
    assert [a.kind for a in acts[:3]] == ["answer"] * 3 and acts[1].facts == acts[0].facts == acts[2].facts
    assert "spelled_misheard" not in acts[1].rules and "spelled_misheard" in acts[2].rules
    assert "H, N, four, R, eight, B" in acts[2].text and "O K A F O R" in acts[2].text
    assert acts[3].ends_call and acts[3].rule == "same_content_again_end"
    assert "three times" in acts[3].text and "few times" not in acts[3].text


def test_the_same_question_it_has_no_answer_for_gets_goodbye_the_second_time() -> None:
    c = _builtin("bb.2")
    first = c.respond("What is your date of birth?")
    assert first.kind == "cannot_answer"
    again = c.respond("What is your date of birth?")
    assert again.ends_call and again.rule == "same_line_again_end"


# -- one rule for the same content again (stall.Repeats): per content, whatever came between ------


def test_the_open_request_is_the_same_request_whatever_details_come_with_it() -> None:
    """bb.3 with its question still open: 'feel free to ask' got the request with its flight; the
    same line again got it without (the flight already said), and is still the same request said
    again to the same turn: goodbye. To an "anything else?" in other words it is said once more."""
    glad = "I'm glad I could help. If you have any other questions, feel free to ask."
    c = _builtin("bb.3")
    c.respond("Could you tell me the confirmation number and last name?")
    first, again = c.respond(glad), c.respond(glad)
    assert first.kind == "state_request" and first.facts and "on time" in first.text
    assert again.ends_call and "on time" not in again.text and "goodbye" in again.text.lower()
    c = _builtin("bb.3")
    c.respond("Could you tell me the confirmation number and last name?")
    turns = [
        glad,
        "Is there anything else I can help you with today?",
        "Let me know if there's anything else I can do.",
    ]
    acts = [c.respond(t) for t in turns]
    assert [a.kind for a in acts[:2]] == ["state_request"] * 2 and "on time" in acts[1].text
    assert acts[2].ends_call and "on time" not in acts[2].text


def test_a_request_stated_to_open_questions_in_other_words_is_given_up_on_the_third_time() -> None:
    c = opened(make_scenario({"last_name": "Murphy"}, intents=["Move your flight.", "Add a checked bag."]))
    c.tracker.done[0] = True
    asks = ["What can I do for you?", "How can I help you today?", "What would you like to do?"]
    acts = [c.respond(a) for a in asks]
    assert [a.kind for a in acts[:2]] == ["state_request"] * 2 and "said_before" in acts[1].rules
    assert all("checked bag" in a.text for a in acts[:2])
    assert acts[2].ends_call and "checked bag" not in acts[2].text and "goodbye" in acts[2].text.lower()


def test_holds_between_asks_for_a_given_fact_do_not_reset_the_count() -> None:
    """The agent asks for the last name again after each hold: nothing moves on, so the fifth
    time it is not given again (holds reset the count before, and the call went on)."""
    c = opened(make_scenario({"last_name": "Murphy", "confirmation_number": "PP248Z"}))
    asks = ["What is your last name?", "Could you spell your last name for me?"]
    acts = []
    for i in range(5):
        acts.append(c.respond(asks[i % 2]))
        assert c.respond("One moment please.").kind == "wait"
    assert [a.kind for a in acts[:4]] == ["answer"] * 4 and all(a.facts == ["last_name"] for a in acts[:4])
    assert acts[4].ends_call and not acts[4].facts and "goodbye" in acts[4].text.lower()


@pytest.mark.parametrize(
    "turn",
    [
        "That's done. Could you tell me the confirmation number, please?",
        "I have updated your booking. Could you tell me the confirmation number, please?",
    ],
)
def test_the_same_report_of_something_done_is_not_progress_again(turn: str) -> None:
    # An agent saying the same 'done' again with the same question is looping: the report counts as
    # progress once, so the caller gives its code, then 'As I said, ...', then spelled one character
    # at a time (misheard twice: :mod:`.hearing`), then gives up (it answered forever when every
    # such turn counted as progress).
    c = _builtin("bb.1")
    acts = [c.respond(turn) for _ in range(4)]
    assert [a.kind for a in acts] == ["answer", "answer", "answer", "end"]
    assert acts[1].text.startswith(("As I said", "As I mentioned", "Like I mentioned"))
    assert "spelled_misheard" in acts[2].rules and "Q, X, seven, T, four, M" in acts[2].text
    assert acts[3].rule == "same_content_again_end" and "three times" in acts[3].text


def test_a_code_given_in_the_call_a_fifth_time_is_a_loop_whatever_moved_on() -> None:
    """make run bb.2 (2026-12-06): between each request for its code the agent read the booking
    back, heard with other words each time (a new report: progress), and the caller gave its
    code 7 times in 8.5 minutes. Said in the call at all, a fifth time is a loop."""
    rep = Repeats()
    ask = "Could you tell me the confirmation number and last name, please?"
    verdicts = []
    for i in range(6):
        act = CallerAct(turn=i, kind="answer", text="It's H N four R eight B.", rule="r", facts=["code"])
        progress = (1, 0, 0, 0, i)  # a report heard anew each time
        verdicts.append(rep.verdict(act, "", ask, ask, progress))
        if verdicts[-1] == "loop":
            break
        rep.note(act, "", ask, ask, progress, progress)
    assert verdicts == ["", "again", "again", "again", "loop"]
