"""What did the agent just say? A deterministic classifier of one agent turn, from the caller's side.

An agent turn is usually several things at once ("You're verified. What's the new hire's
employee ID?": a completed step and a request), so :func:`classify` returns every kind it
finds in a :class:`Heard`, with the caller's facts the agent asked for, the facts it read
back (right or wrong), the options it offered and the name of each rule that fired. The
policy decides from that; the record keeps the rule names.

Fact requests are matched by the words of the scenario's own fact keys (see
:mod:`~voxbench.pipelines.caller.goal.facts`), in request sentences only: a question, or an
imperative such as "Please give me your employee I D". Everything else is a handful of
phrase patterns a customer-service agent uses in any domain. An optional
:class:`ChoiceClassifier` (an LLM constrained to a list of choices built from the
scenario) can be asked which fact a request means when the words find none; it is off
unless injected.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.belong import InHand
from voxbench.pipelines.caller.goal.conditions import refuses
from voxbench.pipelines.caller.goal.cues import (
    ANYTHING_ELSE_SAID,
    CONFIRM_Q,
    COURTESY,
    GIVE_Q,
    GOODBYE,
    INFO_ASKED,
    INFO_NOUN,
    NEXT_STEP,
    OPEN_Q,
    REQUESTS_Q,
    SERVICE_TALK,
    THAT_ALL,
    TRANSFER_NOW,
    TRANSFER_OFFER,
    WILLING_Q,
)
from voxbench.pipelines.caller.goal.digits import prefer_heard_digits
from voxbench.pipelines.caller.goal.facts import Fact, FactBook
from voxbench.pipelines.caller.goal.fallbacks import (
    lacking_fields,
    prefer_fallback,
)
from voxbench.pipelines.caller.goal.fit import fitting
from voxbench.pipelines.caller.goal.forms import read_forms, reports_done
from voxbench.pipelines.caller.goal.fullest import fullest
from voxbench.pipelines.caller.goal.heard import ANYTHING_ELSE_OFFERED, THAT_ALL_ASKED, Heard, Kind, mark
from voxbench.pipelines.caller.goal.holds import HOLD
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.marked import CHOICE_Q
from voxbench.pipelines.caller.goal.options import OPTION_LEAD, offered_options
from voxbench.pipelines.caller.goal.parts import open_parts
from voxbench.pipelines.caller.goal.present import not_the_present, present_asked, still_present
from voxbench.pipelines.caller.goal.readkinds import readback_kinds
from voxbench.pipelines.caller.goal.reasked import not_said_by_agent, said_and_asked_again
from voxbench.pipelines.caller.goal.requested import (
    ChoiceClassifier,
    asked_by_words,
    asked_otherwise,
    learned_extra,
    one_group,
    one_sibling,
)
from voxbench.pipelines.caller.goal.results import stated_result
from voxbench.pipelines.caller.goal.rules import ASK_TAG, HEAD_TAG
from voxbench.pipelines.caller.goal.scoped import scoped
from voxbench.pipelines.caller.goal.transfers import TRANSFER_REFUSED, offers_transfer, refuses_transfer
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.pipelines.caller.goal.unheld import unheld_fields
from voxbench.pipelines.caller.goal.wishes import wish_named
from voxbench.spoken import mentions, times


def _speech_acts(t: Turn, heard: Heard, book: FactBook) -> None:
    """Holds, transfers, "anything else?" (asked, or offered in a closing statement), goodbyes,
    completions and refusals."""
    said = [s for s in t.sents if not SERVICE_TALK.match(s)]  # service talk after a hold holds
    if said and HOLD.match(said[-1]) and not t.questions:
        mark(heard, "hold", "hold_phrase")
    if any(offers_transfer(s, TRANSFER_NOW) for s in t.sents):  # not 'I can't connect you to ...'
        mark(heard, "transfer", "transfer_now")
    elif any(offers_transfer(s, TRANSFER_OFFER) for s in t.sents):
        mark(heard, "transfer_offer", "transfer_offer")
    elif any(refuses_transfer(s) for s in t.statements):  # 'I can't transfer you to a live agent.'
        heard.rules.append(TRANSFER_REFUSED)
    if any(t.anything_else(s) for s in t.questions):
        mark(heard, "anything_else", "anything_else")
    elif any(THAT_ALL.search(s) for s in t.questions[-1:]):  # 'Will that be all?': no confirmation
        mark(heard, "anything_else", THAT_ALL_ASKED)
    elif (
        not t.questions
        and any(ANYTHING_ELSE_SAID.search(s) for s in t.sents)
        and not t.asks_beyond_anything_else()
    ):  # 'If you have any other questions, feel free to ask.' closing a turn that asks nothing else
        mark(heard, "anything_else", ANYTHING_ELSE_OFFERED)
    if GOODBYE.search(t.text) and not t.questions:
        mark(heard, "goodbye", "goodbye")
    if any(reports_done(s, book) for s in t.statements):  # not its own value read back as its field
        mark(heard, "completed", "completed_phrase")
    if refuses(t.statements):  # not 'If you can't wait, ...'
        mark(heard, "denial", "denial_phrase")


def _result_kinds(t: Turn, heard: Heard, book: FactBook, before: str) -> None:
    """A stated result that is the value the caller wants ('The new total number of checked bags is
    1.'), in a turn that asks for nothing (or only "anything else?"): a completion. The action may
    have been announced in the agent's turn ``before`` ('I'll add a checked bag.' / hold / result)."""
    if heard.has("completed") or heard.asked or [q for q in t.questions if not t.anything_else(q)]:
        return
    if t.asks_beyond_anything_else():
        return
    key = next((k for s in t.statements if (k := stated_result(s, book, f"{before} {t.text}"))), None)
    if key is not None:
        mark(heard, "completed", f"result_stated:{key}")


_HELP_END = re.compile(rf"\b(?:{alt('options', 'help_nouns')})[.!?]*$", re.I)


def _option_kinds(t: Turn, heard: Heard) -> None:
    """Options offered in the last question that offers some (not in a request to give or say a value)."""
    found: list[list[str]] = []
    for q in reversed(t.questions or [heard.question]):
        if q and (not CONFIRM_Q.search(q) or re.search(r"\bor\b", q)):
            opts = offered_options(t.sents, q)
            # 'let me know if you have questions or need help': an invitation, no alternatives
            if opts and all(_HELP_END.search(o) for o in opts):
                continue
            if opts and not re.search(r"\b(give|tell|provide|spell|say)\b", OPTION_LEAD.sub(" ", q), re.I):
                found.append(opts)
    if found:  # the last question's options; an earlier question's too ('Is this X or Y? And what size?')
        heard.options, heard.earlier_options = found[0], found[1:2]
        mark(heard, "options", "options")


def _closing_kinds(t: Turn, heard: Heard, book: FactBook) -> None:
    """Troubleshooting steps, open questions, an announced next step, and plain questions/statements."""
    if t.troubleshooting():
        if "confirm_question" in heard.kinds:
            heard.kinds.remove("confirm_question")
        mark(heard, "troubleshoot", "troubleshoot_step")
    if any(OPEN_Q.search(s) for s in t.sents) and (
        not heard.has("request") or any(not asked_facts(p, book) for s in t.requests for p in open_parts(s))
    ):  # 'the details of the items you need, and the date?': its request, and the date
        mark(heard, "open_question", "open_question")
    elif any(REQUESTS_Q.search(s) for s in t.sents):  # '... requests? Please give me the names ...'
        mark(heard, "open_question", "requests_question")
    asks = {
        "request",
        "options",
        "confirm_question",
        "troubleshoot",
        "open_question",
        "transfer_offer",
        "anything_else",
    }
    if any(INFO_ASKED.search(s) and not INFO_NOUN.search(s) for s in t.requests) and not heard.asked:
        mark(heard, "info_request", "info_request")  # 'Could you give me the details I need?': not 'Yes.'
        if not t.questions:  # 'Please provide the following information.': answered as the question is
            heard.kinds.append("question")
        if "confirm_question" in heard.kinds and not heard.has("readback"):  # '... required to proceed?'
            heard.kinds.remove("confirm_question")
    q = t.questions[-1] if t.questions else ""
    if WILLING_Q.search(q) and not GIVE_Q.search(q) and not set(heard.kinds) & (asks | {"info_request"}):
        mark(heard, "willing_question", "willing_question")
    if t.sents and all(COURTESY.match(x) for x in t.sents):
        mark(heard, "courtesy", "courtesy_only")
    if NEXT_STEP.search(t.text) and heard.has("completed") and not t.questions and not t.requests:
        mark(heard, "hold", "next_step_announced")  # done with one thing and moving on: the agent keeps going
    if not heard.kinds or (
        t.questions and not set(heard.kinds) - {"completed", "denial", "readback", "info_request"}
    ):
        heard.kinds.append("question" if (t.questions or t.requests) else "statement")


def classify(
    text: str,
    book: FactBook,
    given: set[str] | None = None,
    hook: ChoiceClassifier | None = None,
    focus: set[str] | InHand | None = None,
    before: str = "",
) -> Heard:
    """Classify one agent turn against the caller's facts (``given``: keys already disclosed;
    ``focus``: the facts of the request in hand, to tell apart 'the dates' of two requests, or
    an :class:`.belong.InHand` that also says which facts serve requests done or to come
    (:mod:`.scoped`); ``before``: the agent's previous turn, where an action whose result this turn states may
    have been announced)."""
    given = given or set()
    hand = focus if isinstance(focus, InHand) else None
    keys = set(hand.keys) if hand is not None else focus if isinstance(focus, set) else None
    t = Turn.of(text)
    heard = Heard(question=(t.questions or t.requests or [""])[-1])
    _speech_acts(t, heard, book)
    asked = _asked(t, heard.kinds, book, given, hook, keys, heard.question, hand)
    heard.present = present_asked([*t.questions, *t.requests])  # 'the current date': no fact's date
    asked = not_the_present(asked, book, heard.present, [*t.questions, *t.requests])
    heard.present = still_present(heard.present, asked, book)
    heard.lacking = lacking_fields(t.requests, book, asked)
    asked = read_forms(t, heard, book, before, {k: r for k, r in asked.items() if k not in heard.lacking})
    heard.rules += [f"lacks:{k}:{v}" for k, v in heard.lacking.items()]
    heard.unheld = unheld_fields(t.requests, book, asked, given)
    heard.rules += [f"unheld:{k}" for k in heard.unheld] + [f"present:{p}" for p in heard.present]
    if asked or heard.present:
        heard.kinds.append("request")
        heard.asked = list(asked)
        heard.rules += [f"ask:{k}:{r}" for k, r in asked.items()]
    _result_kinds(t, heard, book, before)
    readback_kinds(t, heard, book)
    _option_kinds(t, heard)
    _options_not_facts(t, heard, book, given, keys, hand)
    _closing_kinds(t, heard, book)
    if THAT_ALL_ASKED in heard.rules and "confirm_question" in heard.kinds:
        heard.kinds.remove("confirm_question")
    return heard


def _asked(
    t: Turn,
    kinds: list[Kind],
    book: FactBook,
    given: set[str],
    hook: ChoiceClassifier | None,
    focus: set[str] | None,
    question: str,
    hand: InHand | None = None,
) -> dict[str, str]:
    """The caller's facts the turn asks for, and by which rule (``hand``: which request each
    serves, to choose among facts of one kind, :mod:`.scoped`)."""
    aside = hand.done if hand is not None else frozenset()
    asked = asked_by_words(t, book, given, focus, aside) or asked_otherwise(t, list(kinds), book, hook, given)
    # 'Please confirm your arrival time.': its latest acceptable one, which no key match finds
    asked = asked or wish_named([*t.questions, *t.requests], book)
    asked = learned_extra(t, list(kinds), book, hook, given, asked)
    asked = said_and_asked_again(t, book, asked, not_said_by_agent(t, book, asked))
    asked = prefer_heard_digits(t.text, book, asked)
    asked = prefer_fallback(question, book, asked, t.text)
    asked = fullest(t, book, fitting(t, book, one_group(t.text, book, asked)))
    return scoped(t.requests, book, one_sibling(t, book, asked, given), hand)


def _options_not_facts(
    t: Turn, heard: Heard, book: FactBook, given: set[str], focus: set[str] | None, hand: InHand | None = None
) -> None:
    """Clock times listed, then 'Which time would you like?': the question asks which option,
    not a fact named by its head noun alone ('time': the shift start time), when one of the times
    offered is one the caller holds, so choosing it answers. And a type chosen (:func:`_type_chosen`)."""
    if len(heard.options) < 2 or not heard.asked:
        return
    rules = {r.split(":", 2)[1]: r.split(":", 2)[2] for r in heard.rules if r.startswith(ASK_TAG)}
    drop = [
        k
        for k in heard.asked
        if rules.get(k, "").startswith(HEAD_TAG) and _all_of_kind(heard.options, book.get(k), book)
    ]
    # 'Which would you like: help you get a Figma license, or a feedback form?': a fact named only in a
    # clause offered (four words or more; 'Mac or Windows?' says a fact's values) is not asked
    clauses = [o for o in heard.options if len(o.split()) >= 4] if CHOICE_Q.search(heard.question) else []
    left = _asked_outside(t, heard, book, given, focus, hand, clauses) if clauses else heard.asked
    drop += _type_chosen(t, heard, book, given, focus, hand) or [k for k in heard.asked if k not in left]
    if not drop:
        return
    heard.asked = [k for k in heard.asked if k not in drop]
    said = {f"ask:{k}:{rules.get(k, '')}" for k in drop}
    heard.rules = [r for r in heard.rules if r not in said] + [
        f"option_words:{k}" for k in dict.fromkeys(drop)
    ]
    if not heard.asked:
        heard.kinds.remove("request")


def _type_chosen(
    t: Turn, heard: Heard, book: FactBook, given: set[str], focus: set[str] | None, hand: InHand | None = None
) -> list[str]:
    """'For those dates, would you like to use general paid time off or sick leave?': when the
    caller has a fact naming a type that an option says ('pto_type: pto'), facts the question
    names only with its options' words ('paid time off': the PTO dates) are not asked: the question
    chooses the type. 'What dates, and PTO or sick leave?' still asks the dates."""
    typed = [
        f
        for f in book
        if set(f.words) & {"type", "category", "kind"}
        and any(mentions(o, v) for o in heard.options for v in f.values())
    ]
    if not typed or any(len(o.split()) > 5 for o in heard.options):  # a clause read as an option: unsure
        return []
    left = _asked_outside(t, heard, book, given, focus, hand, heard.options)
    return [k for k in heard.asked if k not in left and book.get(k) not in typed]


def _asked_outside(
    t: Turn,
    heard: Heard,
    book: FactBook,
    given: set[str],
    focus: set[str] | None,
    hand: InHand | None,
    options: list[str],
) -> dict[str, str]:
    """The facts the turn's questions and requests name with ``options`` taken out."""
    blank = " ".join(dict.fromkeys(t.questions + t.requests))
    for o in sorted(options, key=len, reverse=True):
        blank = re.sub(re.escape(o), " ", blank, flags=re.I)
    return _asked(Turn.of(blank), [], book, given, None, focus, heard.question, hand)


def _all_of_kind(options: list[str], f: Fact | None, book: FactBook) -> bool:
    """Every option is a value of the fact's kind (clock times for a time), and one of them is a
    time the caller holds: choosing it answers ('I have ten, eleven or two. Which time?' -> 'Ten')."""
    if f is None or "time" not in f.heads or not all(times(o) for o in options):
        return False
    held = {t for g in book if "time" in g.heads for v in g.values() for t in times(v)}
    return any(set(times(o)) & held for o in options)
