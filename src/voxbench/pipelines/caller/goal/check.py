"""`voxbench caller check`: a text-only bench of a caller against each scenario's reference conversation.

The reference agent turns (``ground_truth.expected_trace``; consecutive agent utterances
between two caller lines form one turn) are given to the caller as text, in order, whatever it
replied before. Each reply is compared with what the reference caller said at that point,
symmetrically: the same value matcher (:func:`.spoken.mentions`) finds which goal facts each
reply discloses, and the same reading (:func:`reply_polarity`, :func:`chosen_option`) finds
what each decided.

* **request**: an agent turn with a request or question after which the reference caller
  disclosed goal facts (not just repeated what the agent said). *Answered right*: the caller
  disclosed every one of those facts; each one it did not is *withheld*; goal facts it gave
  there that the reference caller did not are *extra* (not wrong: the agent may have asked).
* **invented**: a value in the caller's words (a code, number, date, time or amount) found in
  none of its facts, its goal's text or the agent's words so far.
* **decision**: a turn whose reference reply says yes or no (to a confirmation, a transfer, a
  troubleshooting step) or names one of the options the agent offered. *Matched*: the caller
  said the same yes/no or named the same option.
* **ending**: the reference caller hangs up at its own goodbye, else after the last agent turn
  (a trace may keep the agent's closing line after the caller's goodbye); ending before that
  turn is *premature*, not ending at it is *missed*.
* **ms per turn**: wall time of the caller's decision.

A :class:`TextCaller` is anything with ``open()`` and ``respond(text)`` returning a
:class:`Reply`; the goal caller and the LLM caller's text path both are.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import BaseModel, Field

from voxbench.pipelines.caller.goal.classify import ChoiceClassifier, classify
from voxbench.pipelines.caller.goal.facts import FactBook, goal_facts
from voxbench.scenarios import Scenario
from voxbench.spoken import dates, mentions, money, runs, times, tokens


class Reply(BaseModel):
    text: str
    ends_call: bool = False
    facts: list[str] = Field(default_factory=list)
    kind: str = ""
    rule: str = ""


class TextCaller(Protocol):
    def open(self) -> Reply: ...

    def respond(self, agent_text: str) -> Reply: ...


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
    invented: list[str] = Field(default_factory=list)
    decision_ref: str = ""
    decision_ours: str = ""
    ends_call: bool = False


class Tally(BaseModel):
    """Counts of one scenario, a domain or the whole run."""

    scenarios: int = 0
    errors: int = 0
    turns: int = 0
    requests: int = 0
    requests_right: int = 0
    facts_expected: int = 0
    facts_withheld: int = 0
    facts_extra: int = 0
    invented: int = 0
    decisions: int = 0
    decisions_matched: int = 0
    premature_endings: int = 0
    missed_endings: int = 0
    ms_total: float = 0.0
    ms_max: float = 0.0

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
            "facts_extra": self.facts_extra,
            "invented_facts": self.invented,
            "decisions_matched_pct": pct(self.decisions_matched, self.decisions),
            "premature_endings": self.premature_endings,
            "missed_endings": self.missed_endings,
            "ms_per_turn": round(self.ms_total / self.turns, 2) if self.turns else None,
            "ms_max": round(self.ms_max, 2),
            "errors": self.errors,
        }


class ScenarioResult(BaseModel):
    domain: str
    scenario_id: str
    tally: Tally
    rows: list[TurnRow] = Field(default_factory=list)
    error: str = ""


class CheckReport(BaseModel):
    simulator: str
    data: str
    limit: int | None = None
    note: str = ""
    overall: dict[str, float | None] = Field(default_factory=dict)
    overall_counts: Tally = Field(default_factory=Tally)
    domains: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    scenarios: list[ScenarioResult] = Field(default_factory=list)


_YES = re.compile(
    r"^(yes|yeah|yep|yup|correct|that('s| is) (correct|right|fine)|right|sure|confirmed?|please (do|go ahead|"
    r"submit|book|proceed|process|place)|go ahead|ok(ay)?[,.]? (please|go ahead|book|submit|do)|that works|"
    r"sounds good|perfect|great, (please|go ahead)|i accept|accept)",
    re.I,
)
_NO = re.compile(
    r"^(no\b|nope|not\b|that('s| is) not|i don('|o no)t want|don('|o no)t|decline|i decline|no,)", re.I
)
_NOT_FIXED = re.compile(
    r"\b(still (not|isn|doesn|happening|having)|did(n't| not) (fix|resolve|work|help)|not working|no luck|already (tried|checked|did))",
    re.I,
)
_FIXED = re.compile(
    r"\b(fixed it|that worked|it works|working now|resolved|i can (connect|log in|sign in) now)\b", re.I
)


def reply_polarity(text: str) -> str:
    """'yes' / 'no' / '' for a caller reply, read the same way for the reference and the caller."""
    t = re.sub(r"^\W+|\{\}", "", text.strip()).strip()
    if _NO.match(t) or _NOT_FIXED.search(t):
        return "no"
    if _YES.match(t) or _FIXED.search(t):
        return "yes"
    return ""


_AUX = re.compile(
    r"^(?:\w+,\s+)?(is|are|was|were|do|does|did|would|will|can|could|shall|should|may|have|has|am)\b", re.I
)


def yes_no_question(agent_text: str) -> bool:
    """Whether the agent asked a yes/no question: an auxiliary-first question, a tag ('..., correct?'),
    or 'please confirm'. Grammar only, independent of the caller's classifier."""
    for s in re.split(r"(?<=[.?!])\s+|\n+", agent_text.strip()):
        s = s.strip()
        if s.endswith("?") and (_AUX.match(s) or re.search(r",\s*(correct|right|okay|ok)\?$", s, re.I)):
            return True
        if re.match(r"^(please )?(confirm|say yes)\b", s, re.I):
            return True
    return False


def chosen_option(text: str, options: list[str]) -> int | None:
    """The one offered option a reply names (by times, amounts or distinctive words), else None."""
    if not text or not options:
        return None
    hits = []
    full = []  # options every word of which the reply says
    rt = set(times(text))
    rw = {w for w in tokens(text) if len(w) > 2}
    for i, o in enumerate(options):
        ot = set(times(o))
        if rt and ot and rt & ot:
            hits.append(i)
            continue
        ow = {w for w in tokens(o) if len(w) > 2} - {"the", "and", "for", "you", "your", "with", "option"}
        if ow and not ot and len(ow & rw) >= max(1, len(ow) // 2):
            hits.append(i)
            if ow <= rw:
                full.append(i)
    if len(hits) > 1 and len(full) == 1:  # 'The equipment is video conferencing': the option it names whole
        return full[0]
    return hits[0] if len(hits) == 1 else None


def disclosed(text: str, book: FactBook, agent_text: str) -> list[str]:
    """Goal facts a reply says that the agent's turn did not already say."""
    return [
        f.key
        for f in book
        if f.matchable and any(mentions(text, v) and not mentions(agent_text, v) for v in f.values())
    ]


class Grounding:
    """What a caller may say: its facts, its goal's prose and everything the agent said."""

    def __init__(self, book: FactBook, goal_text: str) -> None:
        self.texts: list[str] = (
            [goal_text] + [str(v) for f in book for v in f.values()] + [f.spoken() for f in book]
        )

    def add(self, text: str) -> None:
        self.texts.append(text)

    def invented(self, reply: str) -> list[str]:
        known = " \n ".join(self.texts)
        known_runs = runs(known) + [re.sub(r"[^a-z0-9]", "", t.lower()) for t in self.texts]
        out: list[str] = []
        for r in runs(reply):
            if any(c.isdigit() for c in r) and len(r) >= 2 and not any(r in k for k in known_runs):
                out.append(r)
        kd = {(d.month, d.day) for d in dates(known)}
        out += [f"date:{d.month}/{d.day}" for d in dates(reply) if (d.month, d.day) not in kd]
        kt = set(times(known))
        out += [f"time:{h}:{m:02d}" for h, m in times(reply) if (h, m) not in kt]
        km = set(money(known)) | {float(r) for r in known_runs if r.isdigit()}
        out += [f"money:{a:g}" for a in money(reply) if a not in km]
        return list(dict.fromkeys(out))


def reference_turns(scenario: Scenario) -> tuple[str | None, list[tuple[str, str]]]:
    """(opening caller line if the caller speaks first, [(agent turn, reference reply or '')])."""
    trace = scenario.ground_truth.expected_trace
    events = [
        (e.event_type, e.utterance or "")
        for e in (trace.trace if trace else [])
        if e.event_type in ("user_utterance", "agent_utterance")
    ]
    opening = None
    turns: list[tuple[str, str]] = []
    agent: list[str] = []
    for kind, text in events:
        if kind == "agent_utterance":
            agent.append(text)
        elif agent:
            turns.append((" ".join(agent), text))
            agent = []
        elif not turns and opening is None:
            opening = text
        elif turns:  # two caller lines in a row: one reply
            turns[-1] = (turns[-1][0], f"{turns[-1][1]} {text}")
    if agent:
        turns.append((" ".join(agent), ""))
    return opening, turns


_REF_BYE = re.compile(r"\b(goodbye|good bye|bye)\b", re.I)


def reference_end(turns: list[tuple[str, str]]) -> int:
    """The turn at which the reference caller ended the call: its first reply with a goodbye, else the last."""
    return next((i for i, (_, ref) in enumerate(turns) if _REF_BYE.search(ref)), len(turns) - 1)


def check_scenario(domain: str, scenario: Scenario, caller: TextCaller) -> ScenarioResult:
    """Run ``caller`` over one resolved scenario's reference conversation."""
    goal = scenario.user_goal
    book = goal_facts(goal.information_required, scenario.seed_data)
    tree = goal.decision_tree
    ground = Grounding(book, " ".join([goal.high_level_user_goal, *tree.negotiation_behavior, *tree.edge_cases,
                                       *tree.must_have_criteria, *tree.nice_to_have_criteria, tree.resolution_condition,
                                       tree.failure_condition, scenario.starting_utterance()]))  # fmt: skip
    tally = Tally(scenarios=1)
    res = ScenarioResult(domain=domain, scenario_id=scenario.id, tally=tally)
    opening, turns = reference_turns(scenario)
    ref_end = reference_end(turns)
    ended_at: int | None = None
    if opening is not None:
        caller.open()
    for i, (agent, ref) in enumerate(turns):
        ground.add(agent)
        t0 = time.perf_counter()
        reply = caller.respond(agent)
        ms = (time.perf_counter() - t0) * 1000.0
        row = TurnRow(turn=i + 1, agent=agent, reference=ref, reply=reply.text, kind=reply.kind, rule=reply.rule,
                      ms=round(ms, 3), ends_call=reply.ends_call)  # fmt: skip
        tally.turns += 1
        tally.ms_total += ms
        tally.ms_max = max(tally.ms_max, ms)
        heard = classify(agent, book)
        asks = any(s.endswith("?") for s in re.split(r"(?<=[.?!])\s+", agent.strip())) or heard.has("request")
        row.expected_facts = disclosed(ref, book, agent) if ref else []
        row.disclosed_facts = disclosed(reply.text, book, agent)
        if asks and row.expected_facts:
            tally.requests += 1
            row.withheld = [k for k in row.expected_facts if k not in row.disclosed_facts]
            tally.facts_expected += len(row.expected_facts)
            tally.facts_withheld += len(row.withheld)
            tally.requests_right += not row.withheld
            tally.facts_extra += len([k for k in row.disclosed_facts if k not in row.expected_facts])
        row.invented = ground.invented(reply.text)
        tally.invented += len(row.invented)
        ref_pol = reply_polarity(ref) if ref else ""
        ref_opt = chosen_option(ref, heard.options) if heard.options else None
        if ref_opt is not None:
            ours = chosen_option(reply.text, heard.options)
            row.decision_ref, row.decision_ours = (
                f"option:{ref_opt}",
                f"option:{ours}" if ours is not None else reply_polarity(reply.text),
            )
        elif ref_pol and (yes_no_question(agent) or heard.has("troubleshoot")):
            row.decision_ref, row.decision_ours = ref_pol, reply_polarity(reply.text)
        if row.decision_ref:
            tally.decisions += 1
            tally.decisions_matched += row.decision_ref == row.decision_ours
        if reply.ends_call and i < ref_end and ended_at is None:
            ended_at = i
            tally.premature_endings += 1
        if i == ref_end and not reply.ends_call:
            tally.missed_endings += 1
        res.rows.append(row)
    return res


def run_check(
    scenarios: list[tuple[str, Scenario]],
    make_caller: Callable[[str, Scenario], TextCaller],
    simulator: str,
    data: str,
    limit: int | None = None,
    note: str = "",
    on_scenario: Callable[[ScenarioResult], Any] | None = None,
) -> CheckReport:
    """Check every (domain, resolved scenario) and aggregate per domain and overall."""
    report = CheckReport(simulator=simulator, data=data, limit=limit, note=note)
    per_domain: dict[str, Tally] = {}
    taken: dict[str, int] = {}
    for domain, sc in scenarios:
        taken[domain] = taken.get(domain, 0) + 1
        if limit and taken[domain] > limit:
            continue
        try:
            r = check_scenario(domain, sc, make_caller(domain, sc))
        except Exception as e:  # one broken scenario must not hide the others' numbers
            r = ScenarioResult(
                domain=domain, scenario_id=sc.id, tally=Tally(), error=f"{type(e).__name__}: {e}"
            )
        report.scenarios.append(r)
        per_domain.setdefault(domain, Tally()).add(r.tally)
        report.overall_counts.add(r.tally)
        if on_scenario:
            on_scenario(r)
    report.domains = {d: t.summary() | {"scenarios": t.scenarios} for d, t in per_domain.items()}
    report.overall = report.overall_counts.summary() | {"scenarios": report.overall_counts.scenarios}
    return report


class GoalTextCaller:
    """The goal caller behind the :class:`TextCaller` interface (its acts kept in ``acts``)."""

    def __init__(self, scenario: Scenario, seed: int = 0, hook: ChoiceClassifier | None = None) -> None:
        from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig

        self.caller = GoalCaller(scenario, GoalCallerConfig(seed=seed), hook=hook)

    @staticmethod
    def _reply(act: Any) -> Reply:
        return Reply(text=act.text, ends_call=act.ends_call, facts=act.facts, kind=act.kind, rule=act.rule)

    def open(self) -> Reply:
        return self._reply(self.caller.open())

    def respond(self, agent_text: str) -> Reply:
        return self._reply(self.caller.respond(agent_text))


def resolved_scenarios(
    data: str, domains: list[str] | None = None, lang: str = "en"
) -> list[tuple[str, Scenario]]:
    """Every scenario of an EVA-format folder, culture-resolved as the caller sees it."""
    from voxbench.scenarios import load_dataset

    ds = load_dataset(data, domains)
    out: list[tuple[str, Scenario]] = []
    for domain, dd in ds.domains.items():
        for sc in dd.scenarios.values():
            resolved = dd.resolver(sc, lang).resolve(sc.model_dump(mode="json"))
            out.append((domain, Scenario.model_validate(resolved)))
    return out
