"""`voxbench caller check --weak-turns`: the caller against weak-agent turns (:mod:`.weak_turns`),
graded with the bench's own reading (:mod:`.matcher`, :mod:`.reference`), never the caller's.

Each item is run on a fresh caller: its opening, the item's context turns (replies not graded),
then the graded turn. The reply *agrees* when its act is the one the class expects, it says every
fact it must (each value found by :func:`.matcher.facts_said`; one the agent's turn says is excused
only when the turn reads it back to confirm: :func:`missing_facts`), none it must not (those the
agent's turn already said left out), and invents nothing (:class:`.caller_check.Grounding`):

* ``yes``: the reply's polarity is yes;
* ``correct``: a no (the right value is the *must* fact), not "I don't have it";
* ``not_correct``: not a no (its own values were read back right);
* ``keeps``: no correction: no words saying the values are wrong, and not a no that says the
  *must not* fact again (a "No, that's all." to "anything else?" is no correction);
* ``facts``: not "I don't have it";
* ``state``: it says something (four words or more), not "I don't have it", does not hang up, and
  no sentence of it is a bare count ('1 bag.': a number and one word, said with no question asking
  how many);
* ``not_have``: it says it does not have (know) it;
* ``wait``: silence or an acknowledgement: no fact, not "I don't have it", not a question, does
  not hang up;
* ``info``: some fact, or a question back (what does the agent need?); not a bare yes, not "I
  don't have it";
* ``acknowledge``: neither a yes nor a no, not "I don't have it" (a report asks nothing);
* ``ask_again``: a question back, no fact, not "I don't have it", does not hang up;
* ``no``: the reply's polarity is no, and it does not hang up;
* ``restate``: its *must* fact said, though the agent's turn said it too (asked again, it is said
  again, "Yes," first or not), not a no, not "I don't have it";
* ``listed``: no correction (not a no, no words saying a value is wrong), not "I don't have it";
* ``only_asked``: not "I don't have it"; a *must not* fact counts said though the agent's turn
  said it (a read-back is not repeated when another field is asked);
* the ending acts (``next_request``, ``ends``, ``not_end``, ``raise_open``, ``accept``) are read
  by :func:`.weak_endings.problem`; a caller that hung up in the context fails them;
* the offer acts (``takes``, ``chooses``, ``not_offer``) are read by :func:`.weak_offers.problem`;
* ``asks_tree``: not a yes, no hang-up (:func:`.weak_treeask.problem`), and two thirds of the
  tree's question's content words (``item.words``);
* ``states_only``: an open request said, none of its fallback's own words, no hang-up
  (:func:`.weak_fallback.problem`);
* ``picks``, ``refuses_other``: the option its goal wants named, never a yes to a choice; an
  offer outside its goal not taken (:func:`.weak_choices.problem`);
* ``takes_option``: the offered option that holds its value named (:func:`.options.chosen_option`
  on the turn's options), no hang-up (:func:`.weak_refasks.problem`);
* ``wish_framed``: no hang-up, and a wish said only with a word of a wish or a limit
  (:func:`.weak_wishes.problem`);
* ``goal_words``: two thirds of the goal's answer's content words (``item.words``), or a fact of
  its own that the answer names (a word of its key among those words: :func:`.weak_goal.named_facts`;
  any other fact said does not answer the question); not "I don't have it", does not hang up;
* ``wish_words``: as ``goal_words``, but a fact said does not stand for the goal's words (what is
  asked holds no fact, :mod:`.weak_wish`).

A value of ``item.spelled`` not said letter by letter (digits one by one), more tellings
claimed than ``item.told`` (:func:`.weak_misheard.count_problems`), a word of ``item.not_words``, a thing of ``item.not_my`` said as the
caller's own ('my application'), fail the reply (:mod:`.weak_live`).

Whatever the class, a reply fails that says two different facts with the same label ('The
original departure time is 8:10 AM. The original departure time is 1:10 PM.':
:func:`.weak_records.twin_labels`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from voxbench.bench.caller_check import Grounding, TextCaller, call_date_time, goal_text
from voxbench.bench.matcher import GoalFact, facts_said, goal_facts, said_word, squeeze, words_of
from voxbench.bench.reference import BYE, reply_polarity
from voxbench.bench.weak_choices import ACTS as CHOICE_ACTS
from voxbench.bench.weak_choices import problem as choice_problem
from voxbench.bench.weak_endings import ACTS as ENDING_ACTS
from voxbench.bench.weak_endings import problem as ending_problem
from voxbench.bench.weak_fallback import ACTS as FALLBACK_ACTS
from voxbench.bench.weak_fallback import problem as fallback_problem
from voxbench.bench.weak_goal import named_facts
from voxbench.bench.weak_live import owned_problems, spelled_problems
from voxbench.bench.weak_misheard import count_problems
from voxbench.bench.weak_offers import ACTS as OFFER_ACTS
from voxbench.bench.weak_offers import problem as offer_problem
from voxbench.bench.weak_records import twin_labels
from voxbench.bench.weak_refasks import OPTION_ACTS
from voxbench.bench.weak_refasks import problem as option_problem
from voxbench.bench.weak_treeask import ACTS as TREE_ACTS
from voxbench.bench.weak_treeask import problem as tree_problem
from voxbench.bench.weak_turns import WeakItem, generate, table
from voxbench.bench.weak_wishes import ACTS as WISH_ACTS
from voxbench.bench.weak_wishes import problem as wish_problem
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of


class WeakRow(BaseModel):
    item: WeakItem
    reply: str
    rule: str = ""
    said: list[str] = Field(default_factory=list)
    agrees: bool = False
    why: str = ""


def _not_have() -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(p) for p in table().not_have) + r")\b", re.I)


def _denial() -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(p) for p in table().denials) + r")\b", re.I)


def bare_count(text: str) -> bool:
    """A sentence that is only a number and at most one word ('1 bag.', 'Two.')."""
    numbers = set(table().number_words)
    for s in sentences_of(text):
        ws = re.findall(r"[A-Za-z0-9']+", s.lower())
        if 1 <= len(ws) <= 2 and (ws[0].isdigit() or ws[0] in numbers) and all(w.isalpha() for w in ws[1:]):
            return True
    return False


def act_problem(act: str, reply: str, ends_call: bool) -> str:
    """Why the reply is not the act expected ('' when it is)."""
    first = (sentences_of(reply) or [""])[
        0
    ]  # a short first sentence saying so, not 'I don't have X' in a story
    lacks = bool(_not_have().search(first)) and len(first.split()) <= 8
    pol = reply_polarity(reply)
    if act == "yes":
        return "" if pol == "yes" else f"not a yes ({pol or 'no polarity'})"
    if act == "correct":  # said no first, so the agent that asked to confirm hears it refused
        return (
            ""
            if pol == "no" and not lacks
            else f"not a no ({'said it lacks it' if lacks else pol or 'no polarity'})"
        )
    if act == "not_correct":  # its own record read back right: anything but a no
        return "a no to its own values" if pol == "no" else ""
    if act == "keeps":  # its own values stated right in a report: 'No, that's all.' is no correction
        return "said its values are wrong" if _denial().search(reply) else ""
    if act == "facts":
        return "said it lacks it" if lacks else ""
    if act == "state":
        if ends_call or BYE.search(reply):
            return "hung up"
        if lacks or len(words_of(reply)) < 4:
            return "said nothing of its business"
        return "a bare count" if bare_count(reply) else ""
    if act == "not_have":
        return "" if lacks and pol != "yes" else "did not say it lacks it"
    if act == "facts_lacks":  # the facts said are checked by grade(): here, the field it lacks said so
        return "" if _not_have().search(reply) else "did not say it lacks the other"
    if act == "present":  # the date of the call is checked by grade()
        return "hung up" if ends_call or BYE.search(reply) else "said it lacks it" if lacks else ""
    if act == "wait":
        if ends_call or BYE.search(reply):
            return "hung up"
        return "said it lacks it" if lacks else "asked something" if "?" in reply else ""
    if act == "info":  # the facts said are checked by grade(): here, not a bare yes
        return "said it lacks it" if lacks else ""
    if act == "acknowledge":  # a report: neither a yes nor a no to it, not 'I don't have that'
        return f"a {pol} to a report" if pol else "said it lacks it" if lacks else ""
    if act == "ask_again":  # a cut request: a question back, no guess
        if ends_call or BYE.search(reply):
            return "hung up"
        return "said it lacks it" if lacks else "" if "?" in reply else "asked nothing back"
    if act == "no":
        return (
            ""
            if pol == "no" and not (ends_call or BYE.search(reply))
            else f"not a no ({pol or 'no polarity'})"
        )
    if act == "listed":  # a numbered list of asks: its markers are no values read back
        return (
            "a correction" if pol == "no" or _denial().search(reply) else "said it lacks it" if lacks else ""
        )
    if act in ("restate", "only_asked"):  # the facts said are checked by grade()
        return "a no" if act == "restate" and pol == "no" else "said it lacks it" if lacks else ""
    if act == "refuses":  # a fact its tree refuses asked: the fact unsaid is checked by grade()
        return "hung up" if ends_call or BYE.search(reply) else "a yes, not a refusal" if pol == "yes" else ""
    if act in ("goal_words", "wish_words"):  # the goal's words are checked by grade()
        return "hung up" if ends_call or BYE.search(reply) else "said it lacks it" if lacks else ""
    raise ValueError(f"bench/lang/weak_en.json: unknown act {act!r}")


READ_BACK_ACTS = frozenset({"yes", "correct", "not_correct", "keeps", "confirms_ends", "confirms_open",
                            "corrects_open"})  # fmt: skip
"""The acts that answer a read-back: the agent's turn states the caller's values and asks whether
they are right, and a yes or a no (with the value put right) answers it. Only there may a *must*
fact go unsaid because the turn says it: a "Yes." confirms the value read back ('Park' of 'David
Park' needs no saying again when 'David' is corrected). Anywhere else the agent asked for the fact,
and EVA's caller provides "the information you have available ... when the agent asks for it": a
value the agent's words happen to hold (the 'PTO' of "What is the pto type?") tells it nothing.
The one "yes" that answers no read-back, ``have_preference``, names its key's words as the topic,
not its value."""


def missing_facts(item: WeakItem, reply: str, facts: list[GoalFact]) -> list[str]:
    """The *must* facts the reply does not say. Its words are read whole, an echo of the agent's
    turn included (it cannot be told apart from an answer); a fact the turn says is excused only
    when the turn reads it back to confirm (:data:`READ_BACK_ACTS`)."""
    told = set(facts_said(reply, facts, asked_in=item.turn))
    read_back = set(facts_said(item.turn, facts)) if item.act in READ_BACK_ACTS else set()
    return [k for k in item.must if k not in told and k not in read_back]


def grade(item: WeakItem, reply: str, ends_call: bool, facts: list[GoalFact], ground: Grounding,
          ended_before: bool = False) -> tuple[bool, str, list[str]]:  # fmt: skip
    """(agrees, why not, fact keys said) of one reply (``ended_before``: the caller hung up in the context)."""
    said = facts_said(reply, facts, item.turn)  # what it disclosed: an echo of the agent's words is none
    if item.act in ENDING_ACTS:
        why = [ending_problem(item, reply, ends_call, ended_before)]
    elif item.act in OFFER_ACTS:
        why = [offer_problem(item, reply, ends_call, table().offer_taken)]
    elif item.act in TREE_ACTS:
        why = [tree_problem(item, reply, ends_call)]
    elif item.act in WISH_ACTS:
        why = [wish_problem(item, reply, ends_call, facts, table().wish_marks)]
    elif item.act in FALLBACK_ACTS:
        why = [fallback_problem(item, reply, ends_call)]
    elif item.act in CHOICE_ACTS:
        why = [choice_problem(item, reply, ends_call)]
    elif item.act in OPTION_ACTS:
        why = [option_problem(item, reply, ends_call)]
    else:
        why = [act_problem(item.act, reply, ends_call)]
    if item.act in ("wait", "ask_again") and said:
        why.append("said a fact not asked: " + ", ".join(said))
    if item.act == "info" and not said and "?" not in reply:
        why.append("neither a fact nor a question back")
    if item.act in ("restate", "only_asked"):  # asked again what the turn says: an echo is said
        said = facts_said(reply, facts)
    why += [f"missing {k}" for k in missing_facts(item, reply, facts)]
    if item.when and not facts_said(reply, goal_facts({"call_date": item.when})):
        why.append(f"the date of the call not said: {item.when}")
    got, flat = set(words_of(reply)), squeeze(reply)  # a code the goal writes is said spelled
    missing = [w for w in item.words if not said_word(w, got) and squeeze(w) not in flat]
    stands = named_facts(said, item.words) if item.act == "goal_words" else []
    if item.words and not stands and 3 * len(missing) > len(item.words):
        why.append("the goal's answer not said: " + ", ".join(missing))
    if item.act == "keeps":  # a correction: a no with the value said again (as the agent said it too)
        no = reply_polarity(reply) == "no"
        why += [f"corrected {k}" for k in item.must_not if no and k in facts_said(reply, facts)]
    else:
        why += [f"said {k}" for k in item.must_not if k in said]
    why += spelled_problems(reply, item.spelled) + owned_problems(reply, item.not_my)
    why += count_problems(reply, item.told, table().told_counts) if item.told else []
    why += [f"said {w!r}" for w in item.not_words if re.search(rf"\b{re.escape(w)}\b", reply, re.I)]
    why += [f"one label for two values: {x!r}" for x in twin_labels(reply, facts)]
    why += [f"invented {v}" for v in ground.invented(reply)]
    why = [w for w in why if w]
    return not why, "; ".join(why), said


def _clock_values(obj: Any) -> list[str]:
    """Each 24-hour clock value of a goal, as said on a 12-hour clock ('23:45' -> '11:45')."""
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _clock_values(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _clock_values(v)]
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", str(obj).strip()) if obj is not None else None
    return [f"{int(m.group(1)) % 12 or 12}:{m.group(2)}"] if m else []


def run_item(item: WeakItem, scenario: Scenario, caller: TextCaller) -> WeakRow:
    info = scenario.user_goal.information_required
    ground = Grounding(info, goal_text(scenario))
    ground.add(call_date_time(scenario))
    for v in _clock_values(info):  # '23:45' said '11:45 PM': the same time, not an invented number
        ground.add(v)
    caller.open()
    ended = False
    for text in item.context:
        ground.add(text)
        ended = caller.respond(text).ends_call or ended
    ground.add(item.turn)
    reply = caller.respond(item.turn)
    ok, why, said = grade(item, reply.text, reply.ends_call, goal_facts(info), ground, ended)
    return WeakRow(item=item, reply=reply.text, rule=reply.rule, said=said, agrees=ok, why=why)


def with_steps(scenario: Scenario, steps: list[str]) -> Scenario:
    """The scenario with tree steps a class adds to its edge cases (itself when none)."""
    if not steps:
        return scenario
    sc = scenario.model_copy(deep=True)
    sc.user_goal.decision_tree.edge_cases = [*sc.user_goal.decision_tree.edge_cases, *steps]
    return sc


def run_all(
    scenarios: list[tuple[str, Scenario]], make: Callable[[str, Scenario], TextCaller]
) -> list[WeakRow]:
    """Every item of every scenario; one that raises is a row that disagrees, with the error."""
    rows = []
    for domain, sc in scenarios:
        for item in generate(domain, sc):
            try:
                at = with_steps(sc, item.steps)
                rows.append(run_item(item, at, make(domain, at)))
            except Exception as e:  # a broken caller on one item must not hide the others
                rows.append(WeakRow(item=item, reply="", why=f"error {type(e).__name__}: {e}"))
    return rows


def per_class(rows: list[WeakRow]) -> dict[str, dict[str, dict[str, Any]]]:
    """class -> half ('dev', 'test', 'all') -> {items, agree, pct}; class 'all' last."""
    out: dict[str, dict[str, dict[str, Any]]] = defaultdict(
        lambda: defaultdict(lambda: {"items": 0, "agree": 0})
    )
    for r in rows:
        for c in (r.item.cls, "all"):
            for h in (r.item.half, "all"):
                out[c][h]["items"] += 1
                out[c][h]["agree"] += r.agrees
    classes = [c for c in table().classes if c in out] + ["all"]
    return {
        c: {h: {**v, "pct": round(100.0 * v["agree"] / v["items"], 1)} for h, v in out[c].items()}
        for c in classes
    }
