"""Sample-clock pacing and the configurable chunk size."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from voxbench.transports.config import WireConfig
from voxbench.transports.paced import PacedClientOutput, PacedServerOutput, SampleClockPacer
from voxbench.transports.pairing import client_params, server_params
from voxbench.transports.serializers import AudioOnlyProtobufSerializer
from voxbench.transports.wire import make_client, make_server, simulator_serializer

SR = 16000
N = 640  # 40 ms


class FakeClock:
    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_first_chunk_is_followed_by_a_full_period() -> None:
    """Pipecat sleeps 0 after the first chunk (its next_send_time starts at 0), so the second
    chunk leaves right behind it and the stream runs a chunk early; here it waits its turn."""
    clk = FakeClock()
    p = SampleClockPacer(SR, now=clk)
    assert p.sent(N) == pytest.approx(0.04)
    clk.t += 0.04
    assert p.sent(N) == pytest.approx(0.04)


def test_short_stall_is_caught_up_on_the_same_clock() -> None:
    clk = FakeClock()
    p = SampleClockPacer(SR, max_lag_s=0.2, now=clk)
    p.sent(N)
    clk.t += 0.04 + 0.05  # woke 50 ms late: this chunk left late
    assert p.sent(N) == 0.0  # the next one goes at once...
    clk.t += 0.001
    assert p.sent(N) == pytest.approx(0.12 - 0.091)  # ...and the one after on the original clock
    assert p.reanchors == 0


def test_long_stall_reanchors_instead_of_bursting() -> None:
    clk = FakeClock()
    p = SampleClockPacer(SR, max_lag_s=0.2, now=clk)
    p.sent(N)
    clk.t += 5.0  # an idle output (no mixer) or a long stall
    assert p.sent(N) == pytest.approx(0.04)
    assert p.reanchors == 1 and p.due == pytest.approx(clk.t + 0.04)


def test_wire_ends_are_paced_on_the_sample_clock() -> None:
    wire = WireConfig()
    server = make_server(wire, 1)
    client = make_client(wire, 1, simulator_serializer(wire, None))
    assert isinstance(server.output(), PacedServerOutput)
    assert isinstance(client.output(), PacedClientOutput)


@pytest.mark.parametrize("chunk_ms", [10, 20, 40])
def test_chunk_size_reaches_pipecat(chunk_ms: int) -> None:
    ser = AudioOnlyProtobufSerializer()
    assert server_params(ser, SR, chunk_ms=chunk_ms).audio_out_10ms_chunks == chunk_ms // 10
    assert client_params(ser, SR, chunk_ms=chunk_ms).audio_out_10ms_chunks == chunk_ms // 10


def test_chunk_size_is_validated() -> None:
    with pytest.raises(ValidationError):
        WireConfig(chunk_ms=25)
    with pytest.raises(ValueError):
        client_params(AudioOnlyProtobufSerializer(), SR, chunk_ms=5)


def test_default_rushes_nothing_after_a_stall() -> None:
    """A 30 ms stall (the sender's loop busy cutting a TTS frame): the stream resumes late on
    a new clock instead of sending the backlog back to back."""
    clk = FakeClock()
    p = SampleClockPacer(SR, now=clk)
    p.sent(N)
    clk.t += 0.04 + 0.03
    assert p.sent(N) == pytest.approx(0.04)
    assert p.reanchors == 1
    clk.t += 0.04 + 0.002  # ordinary overshoot: caught up on the same clock
    assert p.sent(N) == pytest.approx(0.038)
    assert p.reanchors == 1


def test_lateness_is_measured_on_the_real_clock() -> None:
    """On a logical-clock loop `now` reads the slot a chunk was due at, so the pacer keeps its
    clock through a stall; the real clock says how late the chunks really left: every chunk
    the stall held back counts (under sustained overload every chunk does, as on a plain loop)."""
    logical, real = FakeClock(), FakeClock()
    p = SampleClockPacer(SR, now=logical, real_now=real)
    p.sent(N)
    for k in (1, 2, 3):  # three chunks due during a 100 ms stall, sent back to back after it
        logical.t, real.t = 100.0 + 0.04 * k, 100.14
        p.sent(N)
    logical.t = real.t = 100.16
    p.sent(N)  # on time again
    logical.t, real.t = 100.2, 100.23
    p.sent(N)  # a second stall
    assert (p.reanchors, p.late) == (0, 4)
    assert p.max_late_s == pytest.approx(0.1)
