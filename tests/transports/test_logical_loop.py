"""The logical-clock loop: real time passes, but callbacks read their cause's due time.

Every assertion is on loop times the loop computes from causes (exact values), never on how
long something took: a busy or descheduled test process changes when callbacks run, not
what they read.
"""

from __future__ import annotations

import asyncio
import time

from voxbench.processors.clock import CALL_ORIGIN_S, ConversationClock, loop_now
from voxbench.transports.logical_loop import LogicalClockLoop, run_logical

# The clamp (a cause more than `max_lag_s` behind real time runs at real - max_lag_s) has its own
# test below; the others check how causes carry, so a descheduled test process on a loaded
# machine (lags past the default 0.1 s seen at load 7) must not clamp them.
NO_CLAMP_S = 30.0


def _busy(seconds: float) -> None:
    """Compute on the loop (a stand-in for inline work) for `seconds` of real time."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_timers_read_their_due_time_however_late_they_run() -> None:
    async def main() -> list[float]:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        seen: list[float] = []

        async def ticker() -> None:
            for _ in range(3):
                await asyncio.sleep(0.02)
                seen.append(loop.time() - t0)
                _busy(0.015)  # each tick makes the next one late in real time

        await ticker()
        return seen

    seen = run_logical(main(), max_lag_s=NO_CLAMP_S)
    assert [round(s, 9) for s in seen] == [0.02, 0.04, 0.06]  # not 0.035, 0.07: no lateness


def test_a_chain_of_callbacks_runs_at_its_cause() -> None:
    """A queue hand-off (a frame pushed to the next processor) is stamped when it was put,
    even when the consumer gets round to it after a long computation."""

    async def main() -> tuple[float, float]:
        q: asyncio.Queue[float] = asyncio.Queue()

        async def consumer() -> float:
            await q.get()
            return loop_now()

        task = asyncio.ensure_future(consumer())
        await asyncio.sleep(0.01)
        put_at = loop_now()
        q.put_nowait(put_at)
        _busy(0.03)
        return put_at, await task

    put_at, got_at = run_logical(main(), max_lag_s=NO_CLAMP_S)
    assert got_at == put_at


def test_bytes_from_a_peer_in_the_loop_are_read_when_they_were_written() -> None:
    async def main() -> tuple[bytes, float, float]:
        got: asyncio.Future[tuple[bytes, float]] = asyncio.get_running_loop().create_future()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            data = await reader.readexactly(5)
            got.set_result((data, loop_now()))
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.sleep(0.05)
        sent_at = loop_now()
        writer.write(b"hello")
        _busy(0.03)  # the reader runs late in real time
        data, read_at = await got
        writer.close()
        server.close()
        await server.wait_closed()
        return data, sent_at, read_at

    data, sent_at, read_at = run_logical(main(), max_lag_s=NO_CLAMP_S)
    assert data == b"hello"
    assert read_at == sent_at


def test_a_backlog_runs_in_the_order_it_was_due() -> None:
    """Three timers all overdue after a stall: each one's follow-up (a call_soon) runs
    before the next timer, as on the virtual clock, not after all three timers."""

    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        order: list[str] = []
        t0 = loop.time()
        for i, d in enumerate((0.01, 0.02, 0.03)):

            def fire(i: int = i) -> None:
                order.append(f"timer{i}")
                loop.call_soon(order.append, f"then{i}")

            loop.call_at(t0 + d, fire)
        _busy(0.06)  # all three are due when the loop looks again
        await asyncio.sleep(0.1)
        return order

    order = run_logical(main(), max_lag_s=NO_CLAMP_S)
    assert order == ["timer0", "then0", "timer1", "then1", "timer2", "then2"]


def test_work_from_a_thread_arrives_at_real_time() -> None:
    """Off the loop (a model in a thread) time passes for real: the result's callback does
    not run at the cause of the callback that handed the work out."""

    async def main() -> tuple[float, float]:
        start = loop_now()
        done_at = await asyncio.to_thread(time.sleep, 0.05)
        assert done_at is None
        return start, loop_now()

    start, after = run_logical(main())
    assert after >= start + 0.05


def test_a_stall_longer_than_max_lag_shows() -> None:
    async def main() -> tuple[float, float, int]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, LogicalClockLoop)
        t0 = loop.time()
        _busy(0.08)
        await asyncio.sleep(0.01)  # due at t0 + 0.01, run 70 ms after that
        return t0, loop.time(), loop.clamped

    t0, t1, clamped = run_logical(main(), max_lag_s=0.02)
    assert clamped >= 1
    assert t1 >= t0 + 0.08 - 0.02  # real time minus the tolerated lag, not t0 + 0.01


def test_a_call_clock_zero_starts_the_timeline_at_the_origin() -> None:
    """`ConversationClock.reset` relabels the loop's timeline to start at CALL_ORIGIN_S (so a
    real-time run computes on the same numbers as a virtual one); pending timers keep their
    distance."""

    async def main() -> tuple[float, list[float], float]:
        loop = asyncio.get_running_loop()
        woke: list[float] = []
        for d in (0.05, 0.08):  # scheduled before the zero
            loop.call_later(d, lambda: woke.append(loop.time()))
        clock = ConversationClock()
        clock.reset()
        zero = loop.time()
        await asyncio.sleep(0.1)
        return zero, woke, clock.now()

    zero, woke, now = run_logical(main(), max_lag_s=NO_CLAMP_S)
    assert zero == CALL_ORIGIN_S
    assert round(woke[1] - woke[0], 9) == 0.03
    assert now == 0.1


def test_a_relabelling_moves_the_rest_of_its_batch_too() -> None:
    """Two callbacks due at the same instant run in one batch; when the first relabels the
    timeline (a call zeroing its clock), the second runs, and sleeps, on the new one. (Left
    on the old one it slept for the host's uptime: every local-model call hung.)"""

    async def main() -> tuple[float, float, float]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, LogicalClockLoop)
        seen: dict[str, float] = {}
        done: asyncio.Future[float] = loop.create_future()

        def first() -> None:
            loop.rebase(loop.time() - 10_000.0)
            seen["first"] = loop.time()

        def second() -> None:
            seen["second"] = loop.time()
            loop.call_later(0.02, lambda: done.set_result(loop.time()))

        def both() -> None:
            loop.call_soon(first)
            loop.call_soon(second)

        loop.call_soon(both)
        woke = await asyncio.wait_for(done, timeout=5.0)
        return seen["first"], seen["second"], woke

    first, second, woke = run_logical(main(), max_lag_s=NO_CLAMP_S)
    assert second == first
    assert round(woke - second, 9) == 0.02
