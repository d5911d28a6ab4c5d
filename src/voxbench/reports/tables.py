"""Group conversations by system (and domain, condition) and compute their numbers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from voxbench.reports.model import EVA_A, EVA_X, VALIDATION_METRICS, Conversation
from voxbench.reports.stats import Delta, Estimate, PassStats, mean_stats, paired_delta, pass_stats, seed_of
from voxbench.reports.timeline import build_timeline, load_events

BASE_CONDITION = "clean"
HEADLINE = ("EVA-A_pass", "EVA-X_pass", "EVA-overall_pass")
COMPONENTS = (*EVA_A, *EVA_X)


def metric_order(names: Iterable[str]) -> list[str]:
    """EVA-A components, EVA-X components, then diagnostics, then validation metrics."""
    names = set(names)
    rest = sorted(n for n in names if n not in COMPONENTS and n not in VALIDATION_METRICS)
    return [n for n in COMPONENTS if n in names] + rest + sorted(names & VALIDATION_METRICS)


@dataclass
class GroupStats:
    name: str
    convs: list[Conversation]
    composites: dict[str, PassStats] = field(default_factory=dict)
    metric_means: dict[str, Estimate] = field(default_factory=dict)
    metric_pass: dict[str, PassStats] = field(default_factory=dict)

    @property
    def scored(self) -> int:
        return sum(1 for c in self.convs if c.scored)


def scoreable(convs: Iterable[Conversation]) -> list[Conversation]:
    """Completed records only; invalid and infra-failed ones are counted elsewhere, not scored."""
    return [c for c in convs if c.status == "completed"]


def _trials(convs: Iterable[Conversation], get: object) -> dict[str, list[float | None]]:
    out: dict[str, list[float | None]] = defaultdict(list)
    for c in convs:
        out[c.record.scenario_id].append(get(c))  # type: ignore[operator]
    return dict(out)


def group_stats(name: str, convs: list[Conversation]) -> GroupStats:
    g = GroupStats(name, convs)
    use = scoreable(convs)
    seed = seed_of(name)
    for comp in HEADLINE:
        g.composites[comp] = pass_stats(_trials(use, lambda c, k=comp: c.aggregates.get(k)), seed)
    names = {n for c in use for n in c.metrics}
    for m in metric_order(names):
        g.metric_means[m] = mean_stats(
            _trials(use, lambda c, k=m: c.metrics[k].value if k in c.metrics and c.metrics[k].ok else None),
            seed,
        )
        g.metric_pass[m] = pass_stats(
            _trials(
                use,
                lambda c, k=m: (
                    None
                    if k not in c.metrics or c.metrics[k].passed is None
                    else float(bool(c.metrics[k].passed))
                ),
            ),
            seed,
        )
    return g


def by_key(convs: Iterable[Conversation], key: str) -> dict[str, list[Conversation]]:
    out: dict[str, list[Conversation]] = defaultdict(list)
    for c in convs:
        out[c.system if key == "system" else str(getattr(c.record, key))].append(c)
    return dict(sorted(out.items()))


def leaderboard(convs: list[Conversation], domain: str | None = None) -> list[GroupStats]:
    """One row per system on its base condition ('clean' where a system has it)."""
    rows = []
    for system, cs in by_key(convs, "system").items():
        if domain is not None:
            cs = [c for c in cs if c.record.domain == domain]
        if not cs:
            continue
        base = [c for c in cs if c.record.condition == BASE_CONDITION] or cs
        rows.append(group_stats(f"{system}|{domain}", base))
        rows[-1].name = system
    return sorted(rows, key=lambda g: -(g.composites["EVA-A_pass"].pass1.value or -1))


@dataclass
class PerturbationRow:
    system: str
    condition: str
    n: int
    deltas: dict[str, Delta]
    values: dict[str, float | None]


def perturbation_rows(convs: list[Conversation]) -> list[PerturbationRow]:
    """For each system with a clean baseline, each other condition's change in pass@1."""
    out = []
    for system, cs in by_key(convs, "system").items():
        conds = by_key(cs, "condition")
        if BASE_CONDITION not in conds or len(conds) < 2:
            continue
        base = group_stats(f"{system}|{BASE_CONDITION}", conds[BASE_CONDITION])
        for cond, ccs in conds.items():
            if cond == BASE_CONDITION:
                continue
            other = group_stats(f"{system}|{cond}", ccs)
            deltas = {
                comp: paired_delta(
                    base.composites[comp].per_scenario,
                    other.composites[comp].per_scenario,
                    seed_of(system + cond + comp),
                )
                for comp in HEADLINE
            }
            values = {comp: other.composites[comp].pass1.value for comp in HEADLINE}
            out.append(PerturbationRow(system, cond, len(scoreable(ccs)), deltas, values))
    return out


def latencies(convs: Iterable[Conversation]) -> tuple[list[float], list[float]]:
    """(non-tool, tool) agent response latencies in seconds: eval's per-turn response_speed
    where the record is scored, else measured from the recorded speech onsets."""
    plain: list[float] = []
    tool: list[float] = []
    for c in scoreable(convs):
        if c.turn_latencies is not None:
            pairs = c.turn_latencies
        else:
            tl = build_timeline(load_events(c.path), c.record.duration_s)
            pairs = [(sec, is_tool) for _, sec, is_tool in tl.latencies]
        for sec, is_tool in pairs:
            (tool if is_tool else plain).append(sec)
    return plain, tool
