"""Weak-agent turns about the end of a call in EVA's own words: agent turns taken from the reference
conversations of the *other* domains (leave-one-domain-out), transplanted into every scenario with
that scenario's own open requests, graded by the acts of :mod:`.weak_endings`.

The ``end_*`` classes say what a caller meets by templates; a caller rule written on the
templates' wordings passes them and meets other wordings on unseen scenarios. Here the wordings are
the reference agents', picked by the trace's structure alone (no turn read, no word list):

* a *closing* turn: the agent turn the reference caller answered with its ending (its first reply
  with a goodbye, :func:`.reference.reference_end`) led by a no ("No, that's all."), that ends in
  a question, with no transfer in it ("Your seat is 14C. Is there anything else I can help you with today?");
* a *farewell*: the agent turn after the reference caller's goodbye, the last of the call, no
  transfer in it;
* a *transfer*: the agent turn in which the agent called EVA's transfer tool;
* a *report*: an agent turn right after a write tool call that succeeded (the tool's kind by its
  name, :func:`voxbench.eval.offline._trace.infer_tool_kind`), not a closing, farewell or
  transfer; with no question mark (``noq``) or ending in a question (``asks``);
* a *refusal*: an agent turn right after a tool call that returned an error, and no write that
  succeeded.

The classes (the acts of :func:`.weak_endings.problem`):

* ``ref_close_open``: a closing turn, every request of the scenario open; expected: it states an
  open request, does not end (``next_request``);
* ``ref_close_done``: every request but the last reported done (the templates' reports with
  "anything else?"), then the last one's report followed by the closing turn's final question;
  expected: it ends or checks an untold must-have (``ends_or_checks``); listed requests only, and
  none an in-call behaviour (raised once the rest is done, as in :mod:`.weak_closings`);
* ``ref_bye_open`` / ``ref_bye_again``: a farewell with every request open; expected: it raises
  an open request, does not end / the same farewell again: it ends;
* ``ref_transfer``: a transfer turn; expected: it ends (EVA's prompt: once the transfer is
  initiated, do not stay on the call);
* ``ref_report_noq`` / ``ref_report_asks``: a report of something (another domain's), every
  request open; expected: it does not end (``not_end``);
* ``ref_refused``: a refusal (another domain's), every request open; expected: it does not end.

Per scenario and class, one turn of each other domain, picked by a hash of the scenario and the
turn (no seed). Each item keeps the domain its wording came from (:class:`RefItem`).

A farewell that names one of the scenario's own held fields by its label with another value ('To
close the call, your confirmation number is I N T, zero zero zero zero zero one.' to an airline
caller whose confirmation number is XXF6OH) misstates that field for this caller: the caller
corrects it first, as a completion report stating its value wrong asks (weak class
``report_changed``), and the item grades that correction, not the end of the call. Such a farewell
is not picked for that scenario; another of its source domain is, if any (:func:`misstates`; dev
at the change: 20 airline scenarios, 13 of whose items graded the correction as a failure). A
closing or a report may still misstate: there the caller corrects and goes on (dev: 38 of 39
such items agree), and the class grades what it goes on with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from voxbench.bench.matcher import facts_said, goal_facts, words_of
from voxbench.bench.reference import BYE, reference_end, reply_polarity
from voxbench.bench.weak_closings import behaviour_intent, must_words
from voxbench.bench.weak_endings import listed_all, open_words, requests_of, said_back
from voxbench.bench.weak_facts import Leaf
from voxbench.bench.weak_item import digest
from voxbench.bench.weak_turns import Builder, WeakItem, half
from voxbench.eval.offline._trace import infer_tool_kind
from voxbench.processors.control import TRANSFER_TOOL
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

KINDS = ("close", "bye", "transfer", "report_noq", "report_asks", "refused")
ACTS = {"ref_close_open": "next_request", "ref_close_done": "ends_or_checks", "ref_bye_open": "raise_open",
        "ref_bye_again": "ends", "ref_transfer": "ends", "ref_report_noq": "not_end",
        "ref_report_asks": "not_end", "ref_refused": "not_end"}  # fmt: skip


class RefTurn(NamedTuple):
    """One reference agent turn picked by structure: its domain, scenario, kind and words."""

    domain: str
    scenario_id: str
    kind: str
    text: str


class RefItem(NamedTuple):
    item: WeakItem
    source: str
    """The domain the graded turn's wording comes from."""


class _Turn(NamedTuple):
    text: str
    reply: str
    tools: list[tuple[str, str]]  # (tool name, response status) called in this agent turn


def agent_turns(scenario: Scenario) -> list[_Turn]:
    """The reference agent turns (consecutive agent utterances between two caller lines), with
    the tool calls made in each and the reference caller's reply ('' for the last)."""
    trace = scenario.ground_truth.expected_trace
    out: list[_Turn] = []
    agent: list[str] = []
    tools: list[tuple[str, str]] = []
    for e in trace.trace if trace else []:
        if e.event_type == "agent_utterance":
            agent.append(e.utterance or "")
        elif e.event_type == "tool_response":
            tools.append((e.tool_name or "", (e.status or "").lower()))
        elif e.event_type == "tool_call" and e.tool_name == TRANSFER_TOOL:
            tools.append((TRANSFER_TOOL, "success"))
        elif e.event_type == "user_utterance" and agent:
            out.append(_Turn(" ".join(agent), e.utterance or "", tools))
            agent, tools = [], []
    if agent:
        out.append(_Turn(" ".join(agent), "", tools))
    return out


def kind_of(turns: list[_Turn], i: int) -> str:
    """The structural kind of agent turn ``i`` ('' when none)."""
    t = turns[i]
    names = [n for n, _ in t.tools]
    if TRANSFER_TOOL in names:
        return "transfer"
    end = reference_end([(x.text, x.reply) for x in turns])
    said_bye = end < i and bool(BYE.search(turns[end].reply))
    if i == len(turns) - 1 and not t.reply and said_bye:
        return "bye"
    last = (sentences_of(t.text) or [""])[-1]
    if i == end and BYE.search(t.reply) and reply_polarity(t.reply) == "no" and last.endswith("?"):
        return "close"  # 'No, that's all. Goodbye.': nothing more wanted, not a caller giving up
    if i > end:
        return ""
    wrote = any(infer_tool_kind(n) == "write" and s == "success" for n, s in t.tools)
    if wrote:
        return "report_asks" if last.endswith("?") else "report_noq" if "?" not in t.text else ""
    if any(s == "error" for _, s in t.tools):
        return "refused"
    return ""


def harvest(scenarios: Iterable[tuple[str, Scenario]]) -> list[RefTurn]:
    """Every reference agent turn of a kind, once per wording."""
    out: dict[tuple[str, str], RefTurn] = {}
    for domain, sc in scenarios:
        turns = agent_turns(sc)
        for i, t in enumerate(turns):
            k = kind_of(turns, i)
            if k and t.text.strip():
                out.setdefault((k, t.text.strip()), RefTurn(domain, sc.id, k, t.text.strip()))
    return list(out.values())


def pick(sid: str, turns: list[RefTurn], salt: str) -> RefTurn | None:
    """One of ``turns`` for scenario ``sid``, fixed by a hash of the scenario, ``salt`` and the turn (no seed)."""
    if not turns:
        return None
    return min(turns, key=lambda t: digest(sid, salt, t.text))


def last_question(text: str) -> str:
    """The closing turn's final question (its last sentence)."""
    return (sentences_of(text) or [""])[-1]


def misstates(text: str, own: list[Leaf], scenario: Scenario) -> bool:
    """Whether ``text`` names one of the caller's own fields by all its label's words in a row
    ('confirmation number') and does not say the caller's value of it: another scenario's value
    stated as the caller's own (module docstring)."""
    said = f" {' '.join(words_of(text))} "
    named = [f.key for f in own if f.words and f" {' '.join(f.words)} " in said]
    if not named:
        return False
    facts = [g for g in goal_facts(scenario.user_goal.information_required) if g.key in named]
    return bool(facts) and not set(facts_said(text, facts)) >= {g.key for g in facts}


def items_of(domain: str, scenario: Scenario, pool: list[RefTurn]) -> list[RefItem]:
    """Every item of one scenario, its wordings from the other domains' turns of ``pool`` of
    the scenario's own half (a dev item never shows a test conversation's words)."""
    b = Builder(domain, scenario)
    pool = [t for t in pool if half(t.domain, t.scenario_id) == b.half]
    w = b.t.endings
    reqs = requests_of(b) if w is not None else []
    if w is None or not reqs:
        return []
    minor = set(w.minor)
    every = open_words(reqs, list(range(len(reqs))), minor)
    listed = bool(scenario.scenario_context.get("intents"))
    last_ends = listed and not any(behaviour_intent(x, w) for x in listed_all(b))
    mine = [said_back(w, r) for r in reqs]
    done = [b.template_of(w.done_report, "end_done", f"{n}").format(request=m) for n, m in enumerate(mine)]
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    out: list[RefItem] = []

    def add(cls: str, turn: str, source: str, context: list[str], words: list[list[str]]) -> None:
        out.append(RefItem(WeakItem(domain=domain, scenario_id=scenario.id, half=b.half, cls=cls,
                                    act=ACTS[cls], context=context, turn=turn, open_words=words), source))  # fmt: skip

    for src in sorted({t.domain for t in pool} - {domain}):
        by = {k: [t for t in pool if t.domain == src and t.kind == k] for k in KINDS}
        for k in KINDS:
            turns = [x for x in by[k] if k != "bye" or not misstates(x.text, b.own, scenario)]
            t = pick(scenario.id, turns, k)
            if t is None:
                continue
            if k == "close":
                add("ref_close_open", t.text, src, [], every)
                if last_ends:
                    graded = f"{done[-1]} {last_question(t.text)}"
                    add(
                        "ref_close_done",
                        graded,
                        src,
                        [f"{d} {anything}" for d in done[:-1]],
                        must_words(b, graded),
                    )
            elif k == "bye":
                add("ref_bye_open", t.text, src, [], every)
                add("ref_bye_again", t.text, src, [t.text], [])
            elif k == "transfer":
                add("ref_transfer", t.text, src, [], [])
            else:
                add(f"ref_{k}", t.text, src, [], every)
    return out


def generate_all(scenarios: list[tuple[str, Scenario]]) -> list[RefItem]:
    """Every item of every scenario (the pool: every scenario's reference turns)."""
    pool = harvest(scenarios)
    return [x for d, sc in scenarios for x in items_of(d, sc, pool)]


def counts(pool: list[RefTurn]) -> dict[tuple[str, str], int]:
    """(domain, kind) -> turns in the pool."""
    out: dict[tuple[str, str], int] = {}
    for t in pool:
        out[(t.domain, t.kind)] = out.get((t.domain, t.kind), 0) + 1
    return out
