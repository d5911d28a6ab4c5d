"""The premature-ending classes (:mod:`.weak_premature`) with the graded turn in EVA's own words:
agent turns of the *other* domains' reference conversations of the scenario's own half, picked by
the trace's structure alone (no word list), as :mod:`.weak_refendings` picks its turns:

* ``ref_transfer_again_open``: an *offer*, the agent turn right before the one that called EVA's
  transfer tool, which the reference caller answered with a yes ("... I can offer to transfer you
  to a live agent to review the airport situation. Would you like me to transfer you now?"), said
  twice where the escalation rule forbids a transfer, another request open; expected: not a yes,
  no ending (``declines``);
* ``ref_refused_next``: a *refusal* (:mod:`.weak_refendings`' kind: the agent turn right after a
  tool call that returned an error) that stands for any request (:func:`refusals`), said after the
  request a 'one follow-up, then accept' tree line names was refused twice; it names none of the
  caller's requests; expected: no ending (``not_end``);
* ``ref_check_unanswered``: a *closing* turn's final question ("Is there anything else I can help
  you with today?") after one must-have of two or more reported met and the caller's check of
  the others, the check said to be under way first (the class's own template); expected: it asks
  about an untold must-have (``next_request``).

Each item keeps the domain its wording came from (:class:`.weak_refendings.RefItem`); the
benchmark ``benchmarks/caller_ref_endings.py`` grades them with the other ``ref_*`` classes.
"""

from __future__ import annotations

from collections.abc import Iterable

from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.reference import asks, reply_polarity
from voxbench.bench.weak_item import WeakItem
from voxbench.bench.weak_premature import check_unanswered, refused_then_next, transfer_again
from voxbench.bench.weak_refendings import (
    RefItem,
    RefTurn,
    agent_turns,
    harvest,
    kind_of,
    last_question,
    pick,
)
from voxbench.bench.weak_turns import Builder, half
from voxbench.eval.offline._trace import infer_tool_kind
from voxbench.processors.control import TRANSFER_TOOL
from voxbench.scenarios import Scenario

ACTS = {"ref_transfer_again_open": "declines", "ref_refused_next": "not_end",
        "ref_check_unanswered": "next_request"}  # fmt: skip


def offers(scenarios: Iterable[tuple[str, Scenario]]) -> list[RefTurn]:
    """Every reference agent turn that offered the transfer the next turn made, the reference
    caller saying yes to it, once per wording. Not where that next turn also wrote something (the
    yes confirmed a request the agent then submitted, the transfer coming after it)."""
    out: dict[str, RefTurn] = {}
    for domain, sc in scenarios:
        turns = agent_turns(sc)
        for i, t in enumerate(turns[:-1]):
            nxt = turns[i + 1]
            wrote = any(infer_tool_kind(n) == "write" for n, _ in nxt.tools if n != TRANSFER_TOOL)
            if kind_of(turns, i + 1) == "transfer" and not wrote and reply_polarity(t.reply) == "yes":
                out.setdefault(t.text.strip(), RefTurn(domain, sc.id, "offer", t.text.strip()))
    return list(out.values())


def refusals(scenarios: Iterable[tuple[str, Scenario]]) -> list[RefTurn]:
    """Every reference refusal (:func:`.weak_refendings.kind_of`) that can stand for a refusal
    naming no request in another scenario, once per wording: it asks nothing (no question, no
    request for a value: 'Please read the DEA number one more time' asks the caller to say it
    again, and a push-back there would answer what was not said), says none of its own scenario's
    goal facts (names, identifiers, dates, values: 'the new hire record for Noah Patel, employee I
    D ...' is another caller's record, which a caller corrects), and the reference caller answered
    it as a refusal: with a question (a push-back or a follow-up), giving none of its facts. A
    turn after a tool error the reference caller answered with a value again ('It's C as in Charlie
    ...') was a value not found, not a refusal."""
    out: dict[str, RefTurn] = {}
    for domain, sc in scenarios:
        turns = agent_turns(sc)
        facts = goal_facts(sc.user_goal.information_required)
        for i, t in enumerate(turns):
            text = t.text.strip()
            if kind_of(turns, i) != "refused" or not text or asks(text) or facts_said(text, facts):
                continue
            if "?" in t.reply and not facts_said(t.reply, facts):
                out.setdefault(text, RefTurn(domain, sc.id, "refused", text))
    return list(out.values())


def items_of(domain: str, scenario: Scenario, pool: list[RefTurn]) -> list[RefItem]:
    """Every item of one scenario, its wordings from the other domains' turns of ``pool`` of the
    scenario's own half (a dev item never shows a test conversation's words)."""
    b = Builder(domain, scenario)
    pool = [t for t in pool if half(t.domain, t.scenario_id) == b.half and t.domain != domain]
    out: list[RefItem] = []

    def add(cls: str, context: list[str], turn: str, words: list[list[str]], source: str) -> None:
        out.append(RefItem(WeakItem(domain=domain, scenario_id=scenario.id, half=b.half, cls=cls, act=ACTS[cls],
                                    context=context, turn=turn, open_words=words), source))  # fmt: skip

    refused, check = refused_then_next(b), check_unanswered(b)
    wait = b.template("prem_check_unanswered", "").split("{anything}")[0].strip()
    for src in sorted({t.domain for t in pool}):
        by = {k: [t for t in pool if t.domain == src and t.kind == k] for k in ("offer", "refused", "close")}
        if (t := pick(scenario.id, by["offer"], "prem_offer")) is not None:
            again = transfer_again(b, t.text)
            if again is not None:
                add("ref_transfer_again_open", again.context, t.text, again.open_words, src)
        if refused is not None and (t := pick(scenario.id, by["refused"], "prem_refused")) is not None:
            add("ref_refused_next", refused.context, t.text, refused.open_words, src)
        if check is not None and (t := pick(scenario.id, by["close"], "prem_close")) is not None:
            turn = f"{wait} {last_question(t.text)}"
            add("ref_check_unanswered", check.context, turn, check.open_words, src)
    return out


def generate_all(scenarios: list[tuple[str, Scenario]]) -> list[RefItem]:
    """Every item of every scenario (the pool: every scenario's reference offers, refusals that
    stand for any request, and closings)."""
    pool = [*(t for t in harvest(scenarios) if t.kind != "refused"), *offers(scenarios), *refusals(scenarios)]
    return [x for d, sc in scenarios for x in items_of(d, sc, pool)]
