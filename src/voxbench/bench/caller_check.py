"""`voxbench caller check`: a text-only bench of a caller against each scenario's reference conversation.

The reference agent turns are given to the caller as text, in order, whatever it replied before.
Each reply is compared with what the reference caller said at that point, symmetrically, with the
bench's own reading (:mod:`.matcher`, :mod:`.reference`), never the caller's:

* **request**: an agent turn that asks something after which the reference caller disclosed goal
  facts (not just repeated the agent's). *Answered right*: the caller disclosed every one of them;
  each it did not is *withheld*; goal facts it gave that the reference did not are *extra*. Each
  expected fact is also *asked* (the agent's turn names every word of its key, or offers it as an
  option: :func:`.reference.names_fact`) or *volunteered* by the reference caller unasked, and the
  withheld are counted apart for each: *withheld when asked* is the caller's failure to answer,
  *volunteered, not given* is a reference caller that said more than it was asked; of those, the
  ones the caller had already disclosed in an earlier reply of the call (its opening included),
  in a turn that says no word of their key, are *said before*: the reference said them again, the
  agent already had them (a turn touching the field, 'delivery to B L D two', may read it back
  wrong, and a correction missed there is the caller's miss: not counted here).
* **over-volunteered**: at any turn, a goal fact the caller disclosed that the reference did not
  disclose there, that the agent's turn did not ask for (:func:`.reference.names_fact`, an
  offered option included) and that the caller had not disclosed before in the call (its
  opening included): told unasked beyond the reference. Counted per reply, whatever the turn.
* **invented**: a code, number or date in the caller's words found in none of its facts, its
  goal's text or the agent's words so far.
* **decision**: a turn whose reference reply names one of the options offered, or says yes or no
  to a yes/no question. *Matched*: the caller named the same option or said the same yes/no.
* **ending**: the reference caller hangs up at its own goodbye, else after the last agent turn;
  a caller whose first ending comes before that turn is *premature*, one that has not ended by
  it is *missed*: one of the two at most per scenario, since a caller that hung up has said its
  last word. From the agent turn that called the transfer tool on, ending is not premature (EVA
  tells its caller to hang up once the transfer is initiated), and a reference the agent ended
  by its transfer counts no missed ending (:func:`.reference.reference_ending`).
* **ms per turn**: wall time of the caller's decision.

Given where the reference caller broke its own goal (:mod:`.ref_goal`: the validation gate's
validators run on the reference conversation), each result also holds an *in-goal* tally: the
same counts over the turns where the reference stayed within its goal, and the ending outcome
only when the reference broke its goal at no turn between the two endings (ours and its own);
the excluded reference turns are counted by kind.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from pydantic import BaseModel, Field

from voxbench.bench.matcher import GoalFact, facts_said, goal_facts, squeeze, words_of
from voxbench.bench.reference import (
    asks,
    chosen_option,
    month_days,
    names_fact,
    offered_options,
    reference_ending,
    reference_turns,
    reply_polarity,
    touches_fact,
    yes_no_question,
)
from voxbench.bench.refused import REFUSED_DISCLOSED, refused_facts
from voxbench.bench.tally import ScenarioResult, Tally, TurnRow, by_domain, count, in_goal
from voxbench.scenarios import Scenario
from voxbench.scenarios.loader import DomainData
from voxbench.spoken.moment import written_moment

__all__ = [
    "Grounding", "Reply", "ScenarioResult", "Tally", "TextCaller", "TurnRow", "by_domain", "check_all",
    "check_scenario", "expected_pairs", "goal_text", "resolved", "resolved_scenarios",
]  # fmt: skip


class Reply(BaseModel):
    text: str
    ends_call: bool = False
    facts: list[str] = Field(default_factory=list)
    kind: str = ""
    rule: str = ""


class TextCaller(Protocol):
    def open(self) -> Reply: ...

    def respond(self, agent_text: str) -> Reply: ...


def _digit_runs(text: str) -> list[str]:
    """Each normalised token that holds two digits or more ('950', '15114631', '2026'), and each
    run of tokens holding digits and spelled letters ('5 k r 950' -> '5kr950'; not 'june 3 2026')."""
    ws = words_of(text)
    out = [w for w in ws if sum(c.isdigit() for c in w) >= 2]
    cur: list[str] = []
    for w in [*ws, ""]:
        if any(c.isdigit() for c in w) or (len(w) == 1 and w.isalpha()):
            cur.append(w)
            continue
        while cur and cur[-1] in ("i", "a"):  # '... F L two. I'll': the pronoun, not a letter
            cur.pop()
        if len(cur) > 1 and any(len(c) == 1 and c.isalpha() for c in cur) and _digits(cur) >= 2:
            out.append("".join(cur))
        cur = []
    return out


def _digits(ws: list[str]) -> int:
    return sum(c.isdigit() for w in ws for c in w)


def _only_digits(s: str) -> str:
    return re.sub(r"\D", "", s)


class Grounding:
    """What a caller may say: its facts, its goal's prose and everything the agent said."""

    def __init__(self, info: dict[str, Any], goal_text: str) -> None:
        self.runs: list[str] = []
        self.days: set[tuple[int, int]] = set()
        self.add(goal_text)
        for text in _scalars(info):
            self.add(text)
            self.runs.append(squeeze(text))

    def add(self, text: str) -> None:
        self.runs += [squeeze(r) for r in _digit_runs(text)]
        self.days |= month_days(text)

    def invented(self, reply: str) -> list[str]:
        out = [
            r
            for r in _digit_runs(reply)
            if (sq := squeeze(r))
            and not any(sq in k for k in self.runs)
            and not any(_only_digits(sq) in _only_digits(k) for k in self.runs if _only_digits(k))
        ]
        out += [f"date:{m}/{d}" for m, d in sorted(month_days(reply)) if (m, d) not in self.days]
        return list(dict.fromkeys(out))


def _scalars(obj: Any) -> list[str]:
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _scalars(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _scalars(v)]
    return [] if obj is None or isinstance(obj, bool) else [str(obj)]


def goal_text(scenario: Scenario) -> str:
    goal, tree = scenario.user_goal, scenario.user_goal.decision_tree
    return " ".join([goal.high_level_user_goal, *tree.negotiation_behavior, *tree.edge_cases,
                     *tree.must_have_criteria, *tree.nice_to_have_criteria, tree.resolution_condition,
                     tree.failure_condition, scenario.starting_utterance()])  # fmt: skip


def call_date_time(scenario: Scenario) -> str:
    """The date and time of the call, which EVA's caller prompt gives it ('Today is
    {current_date_time}.'), with the time on a 12-hour clock too ('14:15' said '2:15 PM'): a
    caller saying them invents nothing."""
    cdt = scenario.current_date_time or ""
    now = written_moment(cdt)
    return f"{cdt} {now.clock12}" if now is not None and now.time else cdt


def expected_pairs(scenario: Scenario) -> list[tuple[str, str, list[str]]]:
    """(agent turn, reference reply, goal facts the reply discloses) for every turn: training pairs."""
    facts = goal_facts(scenario.user_goal.information_required)
    return [(a, r, facts_said(r, facts, a) if r else []) for a, r in reference_turns(scenario)[1]]


def _offered(facts: list[GoalFact], agent: str) -> set[str]:
    """The facts the options the agent's turn offers name (a clock-time option names none)."""
    options = [o for o in offered_options(agent) if not o.startswith("time:")]
    return set(facts_said(" ; ".join(options), facts)) if options else set()


def _volunteered(row: TurnRow, agent: str, offered: set[str]) -> list[str]:
    """A request's expected facts the agent did not ask for (the reference volunteered them)."""
    return [k for k in row.expected_facts if not names_fact(agent, k, k in offered)]


def _over_volunteered(row: TurnRow, agent: str, offered: set[str], told: set[str]) -> list[str]:
    """Facts the reply disclosed that the reference did not disclose at this turn, that the agent's
    turn did not ask for and that the caller had not said before in the call: what it told the
    agent unasked beyond what a reference caller told (a caller blurting codes makes the agent's
    job easier than a real caller does)."""
    return [k for k in row.disclosed_facts
            if k not in row.expected_facts and k not in told and not names_fact(agent, k, k in offered)]  # fmt: skip


def _decision(row: TurnRow, agent: str, ref: str, reply: str) -> None:
    options = offered_options(agent)
    ref_opt = chosen_option(ref, options, agent) if options and ref else None
    if ref_opt is not None:
        ours = chosen_option(reply, options, agent)
        row.decision_ref = f"option:{ref_opt}"
        row.decision_ours = f"option:{ours}" if ours is not None else reply_polarity(reply)
    elif ref and (pol := reply_polarity(ref)) and yes_no_question(agent):
        row.decision_ref, row.decision_ours = pol, reply_polarity(reply)


def check_scenario(
    domain: str, scenario: Scenario, caller: TextCaller, breaks: dict[int, list[str]] | None = None
) -> ScenarioResult:
    """Run ``caller`` over one resolved scenario's reference conversation; with ``breaks`` (bench
    turn -> goal rules the reference broke there, :mod:`.ref_goal`) also tally the in-goal turns."""
    info = scenario.user_goal.information_required
    facts: list[GoalFact] = goal_facts(info)
    refused = refused_facts(scenario, facts)
    breaks = None if breaks is None else {t: list(k) for t, k in breaks.items()}  # its own, added to
    ground = Grounding(info, goal_text(scenario))
    ground.add(call_date_time(scenario))
    tally = Tally(scenarios=1)
    res = ScenarioResult(domain=domain, scenario_id=scenario.id, tally=tally)
    opening, turns = reference_turns(scenario)
    ending = reference_ending(scenario, turns)
    first_end: int | None = None
    told: set[str] = set()  # what the caller has disclosed so far in the call
    if opening is not None:
        told |= set(facts_said(caller.open().text, facts))
    for i, (agent, ref) in enumerate(turns):
        ground.add(agent)
        t0 = time.perf_counter()
        reply = caller.respond(agent)
        ms = (time.perf_counter() - t0) * 1000.0
        row = TurnRow(turn=i + 1, agent=agent, reference=ref, reply=reply.text, kind=reply.kind, rule=reply.rule,
                      ms=round(ms, 3), ends_call=reply.ends_call)  # fmt: skip
        row.expected_facts = facts_said(ref, facts, agent) if ref else []
        row.disclosed_facts = facts_said(reply.text, facts, agent)
        offered = _offered(facts, agent)
        if row.expected_facts and asks(agent):
            row.request = True
            row.withheld = [k for k in row.expected_facts if k not in row.disclosed_facts]
            row.volunteered = _volunteered(row, agent, offered)
            row.said_before = [k for k in row.volunteered
                               if k in row.withheld and k in told and not touches_fact(agent, k)]  # fmt: skip
        row.over_volunteered = _over_volunteered(row, agent, offered, told)
        told |= set(row.disclosed_facts)
        row.invented = ground.invented(reply.text)
        _decision(row, agent, ref, reply.text)
        row.refused_disclosed = [k for k in row.disclosed_facts if k in refused]
        row.refused_disclosed_ref = [k for k in row.expected_facts if k in refused]
        if breaks is not None and row.refused_disclosed_ref:  # the reference gave what its tree refuses
            breaks[i + 1] = [*breaks.get(i + 1, []), REFUSED_DISCLOSED]
        row.ref_breaks = list((breaks or {}).get(i + 1, []))
        count(tally, row)
        if reply.ends_call and first_end is None:
            first_end = i
        res.rows.append(row)
    if turns and first_end is not None and first_end < ending.first:
        tally.premature_endings += 1
    elif turns and not ending.by_agent and (first_end is None or first_end > ending.last):
        tally.missed_endings += 1
    if breaks is not None:
        in_goal(res, breaks, first_end, ending.first, ending.last)
    return res


def check_all(
    scenarios: list[tuple[str, Scenario]],
    make_caller: Callable[[str, Scenario], TextCaller],
    on_scenario: Callable[[ScenarioResult], Any] | None = None,
    breaks: Mapping[tuple[str, str], dict[int, list[str]]] | None = None,
) -> list[ScenarioResult]:
    """Check every (domain, resolved scenario); one broken scenario does not hide the others.
    ``breaks``: (domain, id) -> where each reference broke its goal (:class:`.ref_goal.ReferenceGoal`)."""
    out = []
    for domain, sc in scenarios:
        try:
            b = None if breaks is None else breaks.get((domain, sc.id), {})
            r = check_scenario(domain, sc, make_caller(domain, sc), b)
        except Exception as e:
            r = ScenarioResult(
                domain=domain, scenario_id=sc.id, tally=Tally(errors=1), error=f"{type(e).__name__}: {e}"
            )
        out.append(r)
        if on_scenario:
            on_scenario(r)
    return out


def resolved_scenarios(
    data: str, domains: list[str] | None = None, lang: str = "en"
) -> list[tuple[str, Scenario]]:
    """Every scenario of an EVA-format folder, culture-resolved as the caller sees it."""
    from voxbench.scenarios import load_dataset

    ds = load_dataset(data, domains)
    return [
        (domain, resolved(dd, sc, lang)) for domain, dd in ds.domains.items() for sc in dd.scenarios.values()
    ]


def resolved(dd: DomainData, sc: Scenario, lang: str = "en") -> Scenario:
    """One scenario culture-resolved as the caller sees it (names, dates, values of ``lang``)."""
    return Scenario.model_validate(dd.resolver(sc, lang).resolve(sc.model_dump(mode="json")))
