"""Which simulated callers exist: one registry keyed by ``kind``, one default.

Every place that names a caller kind reads it here: the spec (``SimulatorSpec.kind``) and
the call's config validate against it, the CLI's ``--simulator`` choices list it, the
session builds a caller's services by its entry (does it hear words, does it think with its
own LLM), and the live endpoint (``call/simulated.py``) builds its pipeline through
:meth:`CallerEntry.build`, one signature for every kind (:class:`CallerBuild`). Adding a
caller is one :class:`CallerEntry` in :data:`CALLERS` (or :func:`register_caller`) and the
module its ``pipeline`` names; nothing else branches on the kind.

Pure: no pipecat here (the CLI and the pydantic specs import it); a caller's module is
imported when its pipeline is built.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipecat.pipeline.pipeline import Pipeline

    from voxbench.pipelines.bundles import SimulatorServices
    from voxbench.pipelines.call.endpoint import LiveCall
    from voxbench.pipelines.caller.side import CallerSide

DEFAULT_CALLER = "goal"
"""The caller of a call or a run that names none: the goal-directed caller, which answers what
the agent asks by the scenario's decision tree (the trace caller replays the reference lines
whatever the agent says; the LLM caller drifts on small local models)."""


@dataclass(frozen=True)
class CallerBuild:
    """Everything a caller's pipeline is built from, the same for every kind: the call's
    shared state (scenario, config, clock, control, recorder), the caller's services, the
    client transport it speaks on, the call's attempt seed (the goal caller's phrasings),
    whether the agent speaks before every tool call (the trace caller then waits for those
    holds), and the perturbation applied to the caller (its line changes, its persona)."""

    live: LiveCall
    services: SimulatorServices
    transport: Any
    seed: int = 0
    tool_holds: bool = False
    caller_side: CallerSide | None = None


@dataclass(frozen=True)
class CallerEntry:
    """One kind of simulated caller.

    ``pipeline`` and ``prepare`` are ``"module:function"`` paths, imported on use:
    ``pipeline(CallerBuild) -> Pipeline`` builds the caller's live pipeline (its policy, its
    turn-taking, its voice); ``prepare(CallerBuild) -> Awaitable[None]``, if any, runs before
    the call's clock starts (the LLM caller primes its model on its prompt). ``hears_words``:
    it needs an STT of the agent's speech; ``own_llm``: it thinks with its own model (the
    session starts its server)."""

    kind: str
    summary: str
    pipeline: str
    hears_words: bool
    own_llm: bool = False
    prepare: str | None = None

    def resolve(
        self,
    ) -> tuple[Callable[[CallerBuild], Pipeline], Callable[[CallerBuild], Awaitable[None]] | None]:
        """The pipeline builder and the prepare step, imported (a wrong path fails here)."""
        return _resolve(self.pipeline), _resolve(self.prepare) if self.prepare is not None else None

    def build(self, b: CallerBuild) -> Pipeline:
        """The caller's pipeline for this call."""
        return self.resolve()[0](b)

    async def before_clock(self, b: CallerBuild) -> None:
        """Whatever the caller does before the clock starts (nothing for most kinds)."""
        prepare = self.resolve()[1]
        if prepare is not None:
            await prepare(b)


def _resolve(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


CALLERS: dict[str, CallerEntry] = {
    e.kind: e
    for e in (
        CallerEntry(
            "goal",
            "decides by the scenario's goal and decision tree (no LLM); hears the agent through its STT",
            "voxbench.pipelines.caller.goal_live:build_goal_caller",
            hears_words=True,
        ),
        CallerEntry(
            "trace",
            "replays the scenario's reference user lines; hears the agent by VAD only",
            "voxbench.pipelines.caller.trace_simulator:build_trace_caller",
            hears_words=False,
        ),
        CallerEntry(
            "llm",
            "an LLM playing the caller from the scenario's goal and persona (any OpenAI-compatible endpoint)",
            "voxbench.pipelines.caller.llm_simulator:build_llm_caller",
            hears_words=True,
            own_llm=True,
            prepare="voxbench.pipelines.caller.llm_simulator:prepare_before_clock",
        ),
    )
}
"""The registered callers, by kind."""


class UnknownCallerKind(ValueError):
    """A caller kind no entry is registered for."""


def caller_kinds() -> tuple[str, ...]:
    """The registered kinds, sorted (the CLI's ``--simulator`` choices)."""
    return tuple(sorted(CALLERS))


def caller_entry(kind: str) -> CallerEntry:
    """The entry of ``kind``; an unknown kind fails naming the known ones."""
    entry = CALLERS.get(kind)
    if entry is None:
        raise UnknownCallerKind(f"unknown caller kind {kind!r}; known kinds: {', '.join(caller_kinds())}")
    return entry


def check_caller_kind(kind: str) -> str:
    """``kind`` if registered (a pydantic validator of every field that names a caller kind)."""
    return caller_entry(kind).kind


def register_caller(entry: CallerEntry) -> None:
    """Add a caller kind (a plug-in's); a kind already registered is an error."""
    if entry.kind in CALLERS:
        raise ValueError(f"caller kind {entry.kind!r} is already registered")
    CALLERS[entry.kind] = entry
