"""The watch and drain rules on virtual time: exact outcomes, no wall clock."""

from __future__ import annotations

from voxbench.pipelines.call.watch import CallWatch, Drain, Ending, SideState
from voxbench.pipelines.config import LimitsConfig

OK = SideState()
LIMITS = LimitsConfig(time_limit_s=100.0, inactivity_s=10.0)


def test_first_rule_that_fires_wins() -> None:
    w = CallWatch(LIMITS, connect_timeout_s=5.0)
    assert w.check(1.0, OK, OK, connected=False, last_speech_t=0.0) is None
    assert w.check(5.0, OK, OK, connected=False, last_speech_t=0.0) is None  # not yet past
    assert w.check(5.01, OK, OK, connected=False, last_speech_t=0.0) == Ending(
        "connection_lost", "infra_failure", "the simulator never connected", "simulator_transport"
    )
    crashed = SideState(failure="RuntimeError: boom", done=True)
    assert w.check(5.01, crashed, OK, False, 0.0) == Ending(
        "agent_error", "infra_failure", "RuntimeError: boom", "agent"
    )
    assert w.check(2.0, OK, SideState(done=True), True, 0.0) == Ending(
        "simulator_error", "infra_failure", "the simulator pipeline stopped", "simulator"
    )


def test_inactivity_and_time_limit_at_exact_times() -> None:
    w = CallWatch(LIMITS, connect_timeout_s=5.0)
    assert w.check(19.99, OK, OK, True, last_speech_t=10.0) is None
    assert w.check(20.0, OK, OK, True, last_speech_t=10.0) == Ending("inactivity_timeout")
    assert w.check(100.0, OK, OK, True, last_speech_t=99.0) == Ending("time_limit")


def test_a_person_not_yet_connected_is_not_inactive() -> None:
    w = CallWatch(LIMITS, 30.0, ("nobody came", "user_transport"), inactivity_after_connect=True)
    assert w.check(29.0, OK, None, connected=False, last_speech_t=0.0) is None
    assert w.check(30.5, OK, None, False, 0.0) == Ending(
        "connection_lost", "infra_failure", "nobody came", "user_transport"
    )
    assert w.check(29.0, OK, None, True, 0.0) == Ending("inactivity_timeout")


def test_drain_ends_after_quiet_or_at_its_limit() -> None:
    d = Drain(start=0.0, drain_s=6.0)
    assert not d.done(0.3, speaking=False)
    assert not d.done(0.6, speaking=False)  # exactly 0.6 s quiet: not more than
    assert d.done(0.65, speaking=False)
    talkative = Drain(start=0.0, drain_s=2.0)
    t = 0.0
    while not talkative.done(t, speaking=True):
        t = round(t + 0.05, 2)
    assert t == 2.0
    late = Drain(start=0.0, drain_s=6.0)
    assert not late.done(1.0, speaking=True)
    assert not late.done(1.5, speaking=False)
    assert late.done(1.75, speaking=False)
