"""Mic-in-the-loop: a person calls the agent under test, recorded like a simulated call.

`TalkCall` is the driver's handle on one such call. The call itself is a
:class:`~voxbench.pipelines.call.session.CallSession` like every other (`voxbench call`,
`voxbench run`): the same agent built from the spec's profile, the same runner, watch and
drain rules on the conversation clock, and `record.json` written once with the same typed
agent and simulator info. The person is the caller endpoint (`person.py`) on whatever
transport carries their audio: the browser page's WebRTC (`talk_web`) or the machine's
microphone and speaker (`talk_local`).

The person's rating arrives after the call and is added to `record.json` then
(`ConversationRecord.human_rating`), so `voxbench eval` scores the call like any other and
human-rated calls can later check the judges.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.agent.profiles import AgentProfile
from voxbench.pipelines.call.session import CallSession
from voxbench.pipelines.call.spec import PersonSpec
from voxbench.pipelines.human.person import PersonCaller
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.control import EndRequest
from voxbench.records import ConversationRecord, Event, HumanRating, atomic_write_json


def scenario_card(call: CallScenario) -> dict[str, Any]:
    """What the person sees: who they are, what they want, what they know (culture-resolved)."""
    sc = call.resolved()
    goal = sc.get("user_goal") or {}
    tree = goal.get("decision_tree") or {}
    user = sc.get("user_config") or {}
    known = goal.get("information_required") or {}
    return {
        "domain": call.domain,
        "scenario_id": call.scenario.id,
        "caller_name": user.get("name", ""),
        "goal": goal.get("high_level_user_goal", ""),
        "known": {str(k): v for k, v in known.items()} if isinstance(known, dict) else {},
        "must_have": list(tree.get("must_have_criteria") or []),
        "done_when": tree.get("resolution_condition", ""),
        "starting_utterance": sc.get("starting_utterance", ""),
        "current_date_time": sc.get("current_date_time", ""),
    }


class TalkCall:
    """One person's call: open the person's transport, prepare (the agent built and warm),
    start when the person calls, finish when the call has ended, then add the rating.

    ``agent_services``: injected instead of the ones the session builds from the spec (tests).
    """

    def __init__(self, session: CallSession, agent_services: Any = None):
        if not isinstance(session.spec.simulator, PersonSpec):
            raise ValueError("a talk call's spec has a person as its caller (PersonSpec)")
        self.session = session
        self.call: CallScenario = session.scenario()
        self.person = PersonCaller(session.spec.simulator.interface)
        self.agent_services = agent_services
        self.record: ConversationRecord | None = None
        self._run: asyncio.Task[ConversationRecord] | None = None

    @property
    def out(self) -> Path:
        return Path(self.session.out_dir)

    @property
    def agent_name(self) -> str:
        if self.agent_services is not None:
            return str(self.agent_services.info.name)
        agent = self.session.spec.agent
        return agent.name if isinstance(agent, AgentProfile) else agent.profile

    # --- lifecycle -------------------------------------------------------------
    def open(self, transport: BaseTransport) -> None:
        """The transport that carries the person's audio (the agent is built on it)."""
        self.person.transport = transport

    def add_listener(self, fn: Callable[[Event], None]) -> None:
        """Called with every recorded event (the page's live transcript)."""
        self.person.listeners.append(fn)

    async def prepare(self) -> None:
        """Start the session: the agent is built and warmed before anyone calls (outside the
        call's clock); returns when it is ready, raises what stopped it otherwise."""
        if self._run is not None:
            raise RuntimeError("this call is already prepared")
        self._run = asyncio.create_task(
            self.session.run(agent_services=self.agent_services, call=self.call, caller=self.person),
            name="talk-call",
        )
        await self._until(self.person.ready, "the call ended before the agent was ready")

    async def start(self) -> None:
        """The person calls: the conversation clock starts and the agent runs."""
        if self._run is None:
            raise RuntimeError("prepare() first")
        if self.person.go.is_set():
            raise RuntimeError("this call has already started")
        self.person.go.set()
        await self._until(self.person.started, "the call ended before the agent started")

    @property
    def started(self) -> bool:
        return self.person.go.is_set()

    async def on_connected(self) -> None:
        await self.person.connected()

    def on_disconnected(self) -> None:
        self.person.disconnected()

    def hang_up(self, by: str = "person") -> bool:
        return self.person.hang_up(by)

    @property
    def request(self) -> EndRequest | None:
        """Why the call is ending (None while it runs)."""
        live = self.person.live
        return live.control.request if live is not None else None

    @property
    def state(self) -> str:
        live = self.person.live
        if self.record is not None:
            return "rated" if self.record.human_rating is not None else "ended"
        if live is not None and live.control.ending:
            return "ending"
        if live is not None and live.connected.is_set():
            return "in_call"
        return "connecting" if self.started else "ready"

    async def finish(self) -> ConversationRecord:
        """Wait until the call has ended (the person hung up, a limit, a failure) and its
        record is written."""
        if self._run is None or not self.started:
            raise RuntimeError("start() first")
        self.record = await self._run
        return self.record

    async def cancel(self) -> None:
        """Stop the session if it still runs (nobody called, or the page failed mid-way): no
        record is written then."""
        if self._run is None:
            return
        self._run.cancel()
        await asyncio.gather(self._run, return_exceptions=True)

    def rate(self, rating: HumanRating) -> ConversationRecord:
        """Store the person's rating in `record.json` (the rest of the directory is untouched)."""
        if self.record is None:
            raise RuntimeError("the call has not ended yet")
        self.record.human_rating = rating
        atomic_write_json(self.out / "record.json", self.record)
        return self.record

    async def _until(self, event: asyncio.Event, what: str) -> None:
        """Wait for ``event``; if the session's run ends first, raise its error."""
        assert self._run is not None
        waiter = asyncio.ensure_future(event.wait())
        await asyncio.wait({waiter, self._run}, return_when=asyncio.FIRST_COMPLETED)
        if waiter.done():
            return
        waiter.cancel()
        self._run.result()  # raises the run's error, if it failed
        raise RuntimeError(what)
