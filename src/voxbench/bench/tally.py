"""The caller check's counts: a graded turn (:class:`TurnRow`), a tally of turns (:class:`Tally`)
and one scenario's result, with the in-goal tally beside the full one (:func:`in_goal`).

The in-goal tally counts the same things over the turns where the reference caller stayed within
its goal (:mod:`.ref_goal` reads where it did not); the full tally is unchanged by it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class TurnRow(BaseModel):
    turn: int
    agent: str
    reference: str
    reply: str
    kind: str = ""
    rule: str = ""
    ms: float = 0.0
    expected_facts: list[str] = Field(default_factory=list)
    disclosed_facts: list[str] = Field(default_factory=list)
    withheld: list[str] = Field(default_factory=list)
    volunteered: list[str] = Field(
        default_factory=list,
        description="expected facts the agent's turn did not ask for (the reference volunteered)",
    )
    said_before: list[str] = Field(
        default_factory=list,
        description="volunteered facts not given here that the caller under test gave in an earlier reply, in a turn saying no word of their key",
    )
    over_volunteered: list[str] = Field(
        default_factory=list,
        description="facts the reply disclosed that the reference did not here, the agent's turn did not ask for and the caller had not said before",
    )
    invented: list[str] = Field(default_factory=list)
    decision_ref: str = ""
    decision_ours: str = ""
    ends_call: bool = False
    request: bool = False
    ref_breaks: list[str] = Field(
        default_factory=list, description="goal rules the reference caller broke in its reply"
    )
    refused_disclosed: list[str] = Field(
        default_factory=list,
        description="facts the tree says to refuse that the reply disclosed (:mod:`.refused`)",
    )
    refused_disclosed_ref: list[str] = Field(
        default_factory=list, description="facts the tree says to refuse that the reference reply disclosed"
    )


class Tally(BaseModel):
    """Counts of one scenario, a domain or the whole run."""

    scenarios: int = 0
    errors: int = 0
    turns: int = 0
    requests: int = 0
    requests_right: int = 0
    facts_expected: int = 0
    facts_withheld: int = 0
    facts_asked: int = 0
    facts_withheld_asked: int = 0
    facts_volunteered: int = 0
    facts_volunteered_withheld: int = 0
    facts_volunteered_said_before: int = Field(
        0, description="of facts_volunteered_withheld: given by the caller in an earlier reply of the call"
    )
    facts_extra: int = 0
    facts_over_volunteered: int = Field(
        0,
        description="facts told unasked beyond the reference, not said before (every turn, TurnRow.over_volunteered)",
    )
    invented: int = 0
    facts_refused_disclosed: int = Field(
        0, description="disclosures of facts the tree says to refuse (TurnRow.refused_disclosed)"
    )
    facts_refused_disclosed_ref: int = Field(
        0, description="the same, by the reference caller (TurnRow.refused_disclosed_ref)"
    )
    decisions: int = 0
    decisions_matched: int = 0
    premature_endings: int = 0
    missed_endings: int = 0
    ms_total: float = 0.0
    ms_max: float = 0.0
    ref_turns_out: int = Field(0, description="in-goal tally: reference turns left out (it broke its goal)")
    ref_scenarios_out: int = Field(0, description="in-goal tally: scenarios with a reference turn left out")
    ref_endings_out: int = Field(
        0, description="in-goal tally: premature/missed endings at a reference break"
    )

    def add(self, o: Tally) -> None:
        for k in type(self).model_fields:
            if k == "ms_max":
                self.ms_max = max(self.ms_max, o.ms_max)
            else:
                setattr(self, k, getattr(self, k) + getattr(o, k))

    def summary(self) -> dict[str, float | None]:
        def pct(n: int, d: int) -> float | None:
            return round(100.0 * n / d, 1) if d else None

        return {
            "requests_answered_right_pct": pct(self.requests_right, self.requests),
            "facts_withheld_pct": pct(self.facts_withheld, self.facts_expected),
            "facts_withheld_asked_pct": pct(self.facts_withheld_asked, self.facts_asked),
            "facts_volunteered_by_reference": self.facts_volunteered,
            "facts_volunteered_not_given": self.facts_volunteered_withheld,
            "facts_volunteered_said_before": self.facts_volunteered_said_before,
            "facts_withheld_repeats_apart_pct": pct(
                self.facts_withheld - self.facts_volunteered_said_before,
                self.facts_expected - self.facts_volunteered_said_before,
            ),
            "facts_extra": self.facts_extra,
            "facts_over_volunteered": self.facts_over_volunteered,
            "over_volunteered_per_turn": round(self.facts_over_volunteered / self.turns, 3)
            if self.turns
            else None,
            "invented_facts": self.invented,
            "facts_refused_disclosed": self.facts_refused_disclosed,
            "facts_refused_disclosed_by_reference": self.facts_refused_disclosed_ref,
            "decisions_matched_pct": pct(self.decisions_matched, self.decisions),
            "premature_endings": self.premature_endings,
            "missed_endings": self.missed_endings,
            "ms_per_turn": round(self.ms_total / self.turns, 2) if self.turns else None,
            "ms_max": round(self.ms_max, 2),
            "errors": self.errors,
            "scenarios": self.scenarios,
            "reference_turns_out": self.ref_turns_out,
            "reference_scenarios_out": self.ref_scenarios_out,
            "reference_endings_out": self.ref_endings_out,
        }


class ScenarioResult(BaseModel):
    domain: str
    scenario_id: str
    tally: Tally
    rows: list[TurnRow] = Field(default_factory=list)
    error: str = ""
    in_goal: Tally | None = Field(
        None, description="the tally on the turns where the reference kept its goal"
    )
    ref_breaks: dict[str, int] = Field(
        default_factory=dict, description="kind -> reference turns that broke the goal"
    )
    ending_apart: str = Field(
        "", description="'premature'/'missed' graded where the reference broke its goal"
    )


def count(tally: Tally, row: TurnRow) -> None:
    """Add one graded turn to a tally (the request's facts asked or volunteered, apart)."""
    tally.turns += 1
    tally.ms_total += row.ms
    tally.ms_max = max(tally.ms_max, row.ms)
    if row.request:
        withheld_volunteered = len([k for k in row.withheld if k in row.volunteered])
        tally.requests += 1
        tally.facts_expected += len(row.expected_facts)
        tally.facts_withheld += len(row.withheld)
        tally.requests_right += not row.withheld
        tally.facts_extra += len([k for k in row.disclosed_facts if k not in row.expected_facts])
        tally.facts_asked += len(row.expected_facts) - len(row.volunteered)
        tally.facts_withheld_asked += len(row.withheld) - withheld_volunteered
        tally.facts_volunteered += len(row.volunteered)
        tally.facts_volunteered_withheld += withheld_volunteered
        tally.facts_volunteered_said_before += len(row.said_before)
    tally.facts_over_volunteered += len(row.over_volunteered)
    tally.invented += len(row.invented)
    tally.facts_refused_disclosed += len(row.refused_disclosed)
    tally.facts_refused_disclosed_ref += len(row.refused_disclosed_ref)
    if row.decision_ref:
        tally.decisions += 1
        tally.decisions_matched += row.decision_ref == row.decision_ours


def in_goal(
    res: ScenarioResult, breaks: dict[int, list[str]], first_end: int | None, first: int, last: int
) -> None:
    """The tally on the turns where the reference kept its goal. A premature or missed ending is
    left out when the reference broke its goal at a turn between the two endings (from the
    earlier of ours and its first to the later of ours and its last, both included): there the
    two parted because the reference left its instructions."""
    res.in_goal = t = Tally(scenarios=1)
    for kinds in breaks.values():
        for k in kinds:
            res.ref_breaks[k] = res.ref_breaks.get(k, 0) + 1
    t.ref_scenarios_out = int(bool(breaks))
    for row in res.rows:
        if row.ref_breaks:
            t.ref_turns_out += 1
        else:
            count(t, row)
    ours = first_end if first_end is not None else len(res.rows) - 1
    lo, hi = min(ours, first) + 1, max(ours, last) + 1  # as 1-based bench turns
    at_break = any(lo <= turn <= hi for turn in breaks)
    for outcome, n in (("premature", res.tally.premature_endings), ("missed", res.tally.missed_endings)):
        if n and at_break:
            res.ending_apart = outcome
            t.ref_endings_out += n
        elif n:
            setattr(t, f"{outcome}_endings", n)


def by_domain(results: list[ScenarioResult]) -> dict[str, Tally]:
    """Tallies per domain plus 'overall' (last)."""
    per: dict[str, Tally] = {}
    for r in results:
        per.setdefault(r.domain, Tally()).add(r.tally)
    overall = Tally()
    for t in per.values():
        overall.add(t)
    return {**per, "overall": overall}


def in_goal_by_domain(results: list[ScenarioResult]) -> dict[str, Tally]:
    """In-goal tallies per domain plus 'overall' (last); a result without one counts its full tally."""
    return by_domain([r.model_copy(update={"tally": r.in_goal or r.tally}) for r in results])


def breaks_by_domain(results: list[ScenarioResult]) -> dict[str, dict[str, int]]:
    """Reference turns left out per domain (and 'overall') and goal-rule kind."""
    out: dict[str, dict[str, int]] = {}
    for r in results:
        for d in (r.domain, "overall"):
            per = out.setdefault(d, {})
            for k, n in r.ref_breaks.items():
                per[k] = per.get(k, 0) + n
    return {**{d: v for d, v in out.items() if d != "overall"}, "overall": out.get("overall", {})}
