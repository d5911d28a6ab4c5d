"""Where the reference caller broke its own goal, read by the validation gate's validators.

The caller check grades a caller by agreement with EVA's reference caller, an LLM that now and
then breaks its own instructions (asks for the live agent its escalation rule forbids, accepts
the transfer it must decline). Agreeing with it there is not fidelity. This module runs the
gate's ``caller-rules`` validators (:func:`voxbench.eval.offline.behavioral.caller_findings`,
the same code that discards a simulated conversation) on each reference conversation, written
as the gate's calibration writes it (:mod:`voxbench.eval.gateset.conversation`: the trace's
tool calls run through the real executor), and maps each finding to the bench's turn (the
index of :func:`.reference.reference_turns`, 1-based as ``TurnRow.turn``; 0 is the opening line).

Only the kinds in :data:`KINDS` mark a turn; the others are counted but not used (see
docs/caller-check.md, "Reference turns outside the goal", for the precision read on dev).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from voxbench.bench.caller_check import resolved
from voxbench.bench.reference import reference_turns
from voxbench.eval.context import strip_tags
from voxbench.eval.from_record import load_context
from voxbench.eval.gateset.conversation import from_scenario, to_record
from voxbench.eval.offline._caller_end import caller_turns
from voxbench.eval.offline.behavioral import caller_findings
from voxbench.scenarios import Scenario
from voxbench.scenarios.loader import DomainData

KINDS: tuple[str, ...] = (
    "decision_tree_violation",
    "extra_modifications",
    "invented_information",
    "missing_information",
    "premature_ending",
    "wrong_language",
    "duplicate_modifications",
)
"""The validator kinds that exclude a reference turn."""

Breaks = dict[int, list[str]]
"""Bench turn (1-based; 0 = the opening line) -> the kinds the reference caller broke there."""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", strip_tags(text)).strip().lower()


def map_turns(record_turns: dict[int, str], scenario: Scenario) -> dict[int, int]:
    """Record caller turn id -> bench turn (0 = opening), by the lines' own text in order: the
    bench joins two caller lines in a row into one reply, a record may keep them apart."""
    opening, turns = reference_turns(scenario)
    targets = ([(0, _norm(opening))] if opening is not None else []) + [
        (i + 1, _norm(ref)) for i, (_, ref) in enumerate(turns) if ref
    ]
    out: dict[int, int] = {}
    j = 0
    for tid, text in sorted(record_turns.items()):
        line = _norm(text)
        k = next((k for k in range(j, len(targets)) if line and line in targets[k][1]), None)
        if k is not None:
            out[tid] = targets[k][0]
            j = k
    return out


def scenario_breaks(
    dd: DomainData, scenario_id: str, resolved: Scenario, kinds: Iterable[str] = KINDS
) -> Breaks:
    """The bench turns at which the reference caller of one scenario broke its goal."""
    conv = from_scenario(dd, scenario_id)
    if conv is None:
        return {}
    with tempfile.TemporaryDirectory(prefix="refgoal_") as tmp:
        ctx = load_context(to_record(conv, Path(tmp) / "ref", f"ref-{dd.domain}-{scenario_id}", 0))
    where = map_turns(caller_turns(ctx), resolved)
    wanted = set(kinds)
    out: Breaks = {}
    for kind, evidence in caller_findings(ctx).items():
        for e in evidence if kind in wanted else []:
            turn = where.get(int(e.get("turn", -1)))
            if turn is not None and kind not in out.setdefault(turn, []):
                out[turn].append(kind)
    return out


class ReferenceGoal(Mapping[tuple[str, str], Breaks]):
    """(domain, scenario id) -> :data:`Breaks` for an EVA-format folder, each scenario read the
    first time it is asked for (a ``--limit`` run reads only the scenarios it grades)."""

    def __init__(
        self, domains: Mapping[str, DomainData], lang: str = "en", kinds: Iterable[str] = KINDS
    ) -> None:
        self.domains, self.lang, self.kinds = domains, lang, tuple(kinds)
        self._done: dict[tuple[str, str], Breaks] = {}

    @classmethod
    def load(cls, data: str, domains: list[str] | None = None, lang: str = "en") -> ReferenceGoal:
        """For every scenario of an EVA-format folder (``domains``: only those)."""
        from voxbench.scenarios import load_dataset

        return cls(load_dataset(data, domains).domains, lang)

    def __getitem__(self, key: tuple[str, str]) -> Breaks:
        if key not in self._done:
            domain, sid = key
            dd = self.domains[domain]
            self._done[key] = scenario_breaks(dd, sid, resolved(dd, dd.scenarios[sid], self.lang), self.kinds)
        return self._done[key]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return ((d, sid) for d, dd in self.domains.items() for sid in dd.scenarios)

    def __len__(self) -> int:
        return sum(len(dd.scenarios) for dd in self.domains.values())
