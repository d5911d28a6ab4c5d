"""The virtual-clock event loop: timers jump, sockets still work, pipecat's clock reads follow."""

from __future__ import annotations

import asyncio
import time

from voxbench.processors.clock import ConversationClock, loop_now
from voxbench.transports.virtual_loop import VirtualClockLoop, run_virtual, virtual_time


def test_sleeps_jump_exactly_and_cost_no_wall_time() -> None:
    async def main() -> tuple[float, list[float]]:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        stamps: list[float] = []

        async def ticker(period: float, n: int) -> None:
            for _ in range(n):
                await asyncio.sleep(period)
                stamps.append(round(loop.time() - t0, 9))

        await asyncio.gather(ticker(0.02, 3), ticker(0.05, 2), asyncio.sleep(3600))
        return loop.time() - t0, stamps

    wall0 = time.monotonic()
    elapsed, stamps = run_virtual(main())
    assert elapsed == 3600.0
    assert sorted(stamps) == [0.02, 0.04, 0.05, 0.06, 0.1]
    assert time.monotonic() - wall0 < 60  # an hour of timers, not an hour of waiting


def test_loopback_socket_round_trip_at_one_virtual_instant() -> None:
    async def main() -> tuple[bytes, float]:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(await reader.readexactly(5))
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        await asyncio.sleep(1.5)
        t0 = loop_now()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"hello")
        got = await asyncio.wait_for(reader.readexactly(5), timeout=10)
        dt = loop_now() - t0
        writer.close()
        server.close()
        await server.wait_closed()
        return got, dt

    got, dt = run_virtual(main())
    assert got == b"hello"
    assert dt == 0.0  # no timer fired in between: the exchange took no virtual time


def test_executor_work_runs_inline_and_clock_reads_follow_the_loop() -> None:
    import pipecat.audio.vad.vad_controller as vc

    async def main() -> tuple[int, float, float, int]:
        loop = asyncio.get_running_loop()
        clock = ConversationClock()
        clock.start()
        await asyncio.sleep(2.5)
        n = await loop.run_in_executor(None, sum, [1, 2, 3])
        return n, vc.time.monotonic() - loop.time(), clock.now(), clock.get_time()

    with virtual_time(), asyncio.Runner(loop_factory=VirtualClockLoop) as r:
        n, skew, now, ns = r.run(main())
    assert (n, skew, now) == (6, 0.0, 2.5)
    assert ns == 2_500_000_000
    assert vc.time is time  # restored
