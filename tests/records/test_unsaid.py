"""A caller line withdrawn before any of its audio went out is not among what the caller said."""

from __future__ import annotations

from pathlib import Path

from voxbench.eval.from_record import history_from_events
from voxbench.records import ConversationRecord
from voxbench.records.events import CallerAct, Event, Speech, Utterance
from voxbench.records.io import RecordBundle
from voxbench.records.unsaid import unsaid_utterances


def _events() -> list[Event]:
    return [
        Utterance(t=1.0, side="user", channel="user", text="My code is QX7T4M."),
        Speech(t=1.2, side="harness", channel="user", state="onset"),
        Utterance(t=5.0, side="user", channel="user", text="Alright."),
        Speech(t=5.9, side="harness", channel="agent", state="onset"),
        CallerAct(t=5.9, side="user", kind="withdrawn", text="Alright.", rule="agent_spoke_first"),
        Utterance(t=9.0, side="user", channel="user", text="My employee ID is EMP123456."),
    ]


def test_the_withdrawn_line_and_only_it_is_unsaid() -> None:
    assert unsaid_utterances(_events()) == {2}


def test_words_said_differently_take_back_the_latest_earlier_line() -> None:
    ev = _events()
    ev[4] = CallerAct(t=5.9, side="user", kind="withdrawn", text="All right.", rule="agent_spoke_first")
    assert unsaid_utterances(ev) == {2}


def test_the_eval_history_leaves_the_withdrawn_line_out() -> None:
    rec = ConversationRecord(conversation_id="c1", domain="airline", scenario_id="1.1.2")
    said = [
        h.text
        for h in history_from_events(RecordBundle(Path("."), rec, _events()))
        if h.kind == "user_intended"
    ]
    assert said == ["My code is QX7T4M.", "My employee ID is EMP123456."]


def test_a_line_recorded_with_its_sentences_run_together_is_the_withdrawn_one() -> None:
    ev: list[Event] = [
        Utterance(t=1.0, side="user", channel="user", text="Hi."),
        Utterance(t=5.0, side="user", channel="user", text="Alright.Thanks."),
        Utterance(t=5.5, side="user", channel="user", text="Are you still there?"),  # not the one
        CallerAct(t=5.9, side="user", kind="withdrawn", text="Alright. Thanks.", rule="agent_spoke_first"),
    ]
    assert unsaid_utterances(ev) == {1}
