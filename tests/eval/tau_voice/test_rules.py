"""Each rule of τ-voice's interaction-metrics.md on trajectories whose answers are worked out
by hand (200 ms ticks unless stated; a latency is a number of ticks times 0.2 s)."""

from __future__ import annotations

from collections import Counter

import pytest

from voxbench.eval.tau_voice.ticks import Tick, filter_end_of_conversation_ticks, rows_of, timeline_from_ticks
from voxbench.eval.tau_voice.timeline import Event, Windows, detect

from .trajectories import ticks

W = Windows()


def events(user: str, agent: str, **kw: object) -> list[Event]:
    ts = [Tick.model_validate(t) for t in ticks(user, agent, **kw)]  # type: ignore[arg-type]
    return detect(timeline_from_ticks(ts, 0.2), W)


def kinds(evs: list[Event]) -> Counter[str]:
    return Counter(e.kind for e in evs)


def test_end_of_conversation_drops_a_final_one_tick_user_segment_only() -> None:
    one = [Tick.model_validate(t) for t in ticks("...U", "AAAA")]
    assert len(filter_end_of_conversation_ticks(rows_of(one))) == 3
    two = [Tick.model_validate(t) for t in ticks("..UU", "AAAA")]
    assert len(filter_end_of_conversation_ticks(rows_of(two))) == 4
    # without the filter the last tick would be an interruption the agent never yielded to
    assert kinds(events("......U", "AAAAAAA")) == Counter()


def test_response_latency_from_user_end_to_agent_start() -> None:
    evs = events("UUU........", ".....AAAA..")
    # user speech covers ticks 0-2 (ends at 0.6 s), agent starts at tick 5 (1.0 s): 0.4 s
    assert [(e.kind, e.latency) for e in evs] == [("response", pytest.approx(0.4))]


def test_no_response_when_the_user_speaks_again_first() -> None:
    evs = events("UU...UU.......", "..........AAA.")
    assert [e.kind for e in evs] == ["no_response", "response"]
    assert evs[1].latency == pytest.approx(0.6)  # second turn ends at tick 7, agent at 10


def test_agent_starting_with_the_users_next_turn_is_no_response() -> None:
    assert [e.kind for e in events("UU..UU....", "....AA....")][:1] == ["no_response"]


def test_last_turn_without_any_later_speech_is_no_event() -> None:
    assert kinds(events("..UU......", "..........")) == Counter()


def test_yield_latency_and_no_yield_window() -> None:
    # agent speaks ticks 0-7, user barges in at 3: agent stops at tick 8, 5 ticks = 1.0 s
    evs = events("...UU.......", "AAAAAAAA....")
    y = [e for e in evs if e.kind in ("yield", "no_yield")]
    assert [(e.kind, e.latency) for e in y] == [("yield", pytest.approx(1.0))]
    # exactly 2.0 s (10 ticks) still yields; 11 ticks does not
    assert kinds(events("UU" + "." * 12, "A" * 10 + "." * 4))["yield"] == 1
    assert kinds(events(".UU" + "." * 12, "A" * 12 + "." * 3))["no_yield"] == 1


def test_agent_still_talking_at_the_end_did_not_yield() -> None:
    assert kinds(events("..UU..", "AAAAAA"))["no_yield"] == 1


def test_interrupted_turn_the_agent_talked_through_gets_no_response_event() -> None:
    evs = events(".UU.............", "A" * 14 + "..")
    assert kinds(evs) == Counter({"no_yield": 1})


def test_yielded_interruption_then_counts_as_a_user_turn() -> None:
    evs = events(".UUUU......", "AAA....AA..")
    # yield at tick 3 (2 ticks after 1); the turn ends at 5, the agent answers at 7: 0.4 s
    assert [(e.kind, e.latency) for e in evs] == [
        ("yield", pytest.approx(0.4)),
        ("response", pytest.approx(0.4)),
    ]


def test_agent_interrupts_each_agent_segment_starting_in_user_speech() -> None:
    evs = events("UUUUUUUUU....", "..AA..AA.....")
    assert kinds(evs)["agent_interrupt"] == 2
    # an agent segment starting as the user stops is not one
    assert kinds(events("UUU......", "...AA....")) == Counter({"response": 1})


def test_backchannel_talked_through_is_correct_and_excluded_from_responses() -> None:
    evs = events("..U.......", "AAAAAAAAAA"[:9] + ".", actions={2: "backchannel"})
    assert kinds(evs) == Counter({"backchannel_correct": 1})
    # the agent stops 5 ticks (1.0 s) after the backchannel started: an error
    evs = events("..U........", "AAAAAAA....", actions={2: "backchannel"})
    assert kinds(evs) == Counter({"backchannel_error": 1})


def test_backchannel_in_silence_is_neither_turn_nor_selectivity_event() -> None:
    assert kinds(events("..U......", "......AA.", actions={2: "backchannel"})) == Counter()


def test_priority_backchannel_vocal_tic_non_directed_interruption() -> None:
    both = {2: ("speech_effects", "vocal_tic")}
    a = "A" * 13 + "..."  # the agent talks on 2.2 s after tick 2
    u = "..UU" + "." * 12
    assert kinds(events(u, a, actions={2: "backchannel"}, inserts=both)) == Counter(
        {"backchannel_correct": 1}
    )
    assert kinds(events(u, a, inserts=both)) == Counter({"vocal_tic_correct": 1})
    nd = {3: ("speech_effects", "non_directed_phrase")}
    assert kinds(events(u, a, inserts=nd)) == Counter({"non_directed_correct": 1})
    tic_and_nd = {2: ("speech_effects", "non_directed_phrase"), 3: ("speech_effects", "vocal_tic")}
    assert kinds(events(u, a, inserts=tic_and_nd)) == Counter({"vocal_tic_correct": 1})
    assert kinds(events(u, a)) == Counter({"no_yield": 1})


def test_in_turn_effect_starting_in_silence_is_an_ordinary_turn() -> None:
    evs = events("UUU......", ".....AA..", inserts={1: ("speech_effects", "vocal_tic")})
    assert kinds(evs) == Counter({"response": 1})


def test_out_of_turn_effect_during_agent_speech_errs_by_yielding_within_1s() -> None:
    src = {2: ("source_effects", "vocal_tic")}
    assert kinds(events("." * 10, "AAAAAAA...", inserts=src)) == Counter(
        {"vocal_tic_error": 1}
    )  # stops 1.0 s on
    assert kinds(events("." * 10, "AAAAAAAA..", inserts=src)) == Counter({"vocal_tic_correct": 1})  # 1.2 s on


def test_out_of_turn_effect_in_silence_errs_by_responding_within_2s() -> None:
    src = {1: ("source_effects", "non_directed_phrase")}
    # the effect tick ends at 0.4 s; the agent starts at tick 12 (2.4 s): 2.0 s, an error
    assert kinds(events("." * 14, "." * 12 + "AA", inserts=src)) == Counter({"non_directed_error": 1})
    assert kinds(events("." * 15, "." * 13 + "AA", inserts=src)) == Counter({"non_directed_correct": 1})
    assert kinds(events("." * 6, "." * 6, inserts=src)) == Counter({"non_directed_correct": 1})


def test_tick_duration_scales_every_latency_and_window() -> None:
    ts = [Tick.model_validate(t) for t in ticks("UUU........", ".....AAAA..")]
    evs = detect(timeline_from_ticks(ts, 0.5), Windows(tick_duration_sec=0.5))
    assert evs[0].latency == pytest.approx(1.0)


def test_agent_stopping_on_the_users_last_tick_leaves_the_turn_without_response_event() -> None:
    # the agent speaks ticks 0-3 and the user ticks 2-3: the agent spoke on the user's last
    # tick, so the turn did not end in agent silence (an interruption, yielded in 0.4 s)
    evs = events("..UU......", "AAAA....AA")
    assert [(e.kind, e.latency) for e in evs] == [("yield", pytest.approx(0.4))]
