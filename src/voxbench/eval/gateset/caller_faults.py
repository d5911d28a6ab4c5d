"""The caller's faults injected into a reference conversation (:mod:`.faults` says how every
injection is made): a fact invented or withheld when asked, a hang-up while the agent was
progressing, a request outside the goal, a line in another language, a line not said, an
escalation the goal forbids. The wordings are the tables below."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from voxbench.eval.gateset._steps import (
    Injected,
    Injector,
    Party,
    agent_questions,
    before_first_write,
    digit_facts,
    edit_step,
    fabricate,
    given_facts,
    mid_caller_lines,
)
from voxbench.eval.gateset.conversation import Line, RefConversation
from voxbench.eval.offline._caller_end import offers_to_end
from voxbench.eval.offline._caller_facts import field_words, holds

HANG_UPS = (
    "Actually, never mind. I have to go. Bye.",
    "Sorry, I need to run. I'll call back later. Goodbye.",
    "Forget it, I don't have time for this right now. Bye.",
    "Okay, I'll deal with this another time. Goodbye.",
    "You know what, let's leave it. Thanks, bye.",
)
WITHHOLDS = (
    "I don't have that with me right now.",
    "Sorry, I don't know it.",
    "I'd rather not give that out.",
    "I can't remember it, sorry.",
    "Hmm, I'm not sure what it is.",
)
EXTRA_OPENERS = (
    "While I have you, I'd also like to",
    "Oh, and one more thing: can you also",
    "I'd also like to",
)
EXTRA_REQUESTS = (
    "update the mailing address on my account",
    "get a refund for a charge from last month",
    "file a complaint about a previous experience",
    "add my spouse as an authorized contact",
    "change the phone number you have on file",
    "sign up for your newsletter and promotions",
)
FOREIGN_LINES = {
    "es": "Sí, claro. ¿Puede ayudarme con eso, por favor? Lo necesito para hoy.",
    "fr": "Oui, bien sûr. Pouvez-vous m'aider avec cela, s'il vous plaît ? J'en ai besoin aujourd'hui.",
    "de": "Ja, natürlich. Können Sie mir bitte dabei helfen? Ich brauche das heute.",
    "it": "Sì, certo. Può aiutarmi con questo, per favore? Mi serve per oggi.",
    "pt": "Sim, claro. Você pode me ajudar com isso, por favor? Eu preciso disso hoje.",
    "zh": "是的，请您帮我处理一下这个问题，我今天就需要。",
    "hi": "हाँ, कृपया इसमें मेरी मदद कीजिए, मुझे यह आज ही चाहिए।",
}
ESCALATIONS = (
    "Can I speak to a supervisor, please?",
    "I'd like to talk to a live agent.",
    "Just transfer me to a real person.",
    "Let me speak to your manager.",
)


def invented_fact(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A fact of the caller replaced by a made-up one of the same shape; or, when no caller
    line states one, a made-up identifier added to a caller line."""
    for fact in rng.sample(digit_facts(conv), len(digit_facts(conv))):
        hits = [i for i in conv.lines("user") if fact.lower() in conv.line(i).text.lower()]
        if hits:
            i = rng.choice(hits)
            fake = fabricate(fact, rng)
            text = re.sub(re.escape(fact), fake, conv.line(i).text, flags=re.I)
            return edit_step(conv, i, replace(conv.line(i), text=text), f"{fact!r} -> {fake!r}")
    i = rng.choice(mid_caller_lines(conv))
    code = fabricate("AB12CD9", rng)
    text = f"{conv.line(i).text} My member number is {code}."
    return edit_step(conv, i, replace(conv.line(i), text=text), f"added member number {code}")


def withheld_fact(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A caller reply that gives one of its facts *because the agent asked for it*, replaced by
    a refusal. Asked: the agent's question says a word of the fact's field name ("date" for
    `date_constraint_earliest_departure`, "employee" for `employee_id`) and the reply is the
    first line of the call to state the fact (a restated fact, or one volunteered to an open
    "what else can I help with?", was not asked for)."""
    facts = given_facts(conv)
    opening = [j for j in conv.lines("agent") if j < conv.lines("user")[0]]
    cands = []
    for i in conv.lines("user"):
        prev = [j for j in conv.lines("agent") if j < i and j not in opening]  # not "how can I help?"
        if not prev or "?" not in conv.line(prev[-1]).text:
            continue
        asked = set(re.findall(r"[a-z0-9]+", conv.line(prev[-1]).text.lower()))
        before = [conv.line(j).text for j in conv.lines("user") + conv.lines("agent") if j < i]
        if any(
            holds(conv.line(i).text, v) and field_words(k) & asked and not any(holds(b, v) for b in before)
            for k, v in facts.items()
        ):
            cands.append(i)
    if not cands:
        return None
    i = rng.choice(cands)
    return edit_step(conv, i, replace(conv.line(i), text=rng.choice(WITHHOLDS)), "fact withheld when asked")


def early_hangup(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The caller leaves right after an agent question, before the task's first write, while
    the agent was progressing (its question neither offered a transfer nor wrapped up)."""
    qs = [i for i in agent_questions(conv, before_first_write(conv)) if not offers_to_end(conv.line(i).text)]
    if not qs:
        return None
    i = rng.choice(qs)
    steps = [*conv.steps[: i + 1], Line("user", rng.choice(HANG_UPS))]
    return Injected(conv.copy(steps, "end_call"), i + 1, "caller hung up after an agent question")


def outside_goal(conv: RefConversation, rng: random.Random) -> Injected | None:
    i = rng.choice(mid_caller_lines(conv))
    extra = f"{rng.choice(EXTRA_OPENERS)} {rng.choice(EXTRA_REQUESTS)}."
    return edit_step(conv, i, replace(conv.line(i), text=f"{conv.line(i).text} {extra}"), extra)


def wrong_language(conv: RefConversation, rng: random.Random) -> Injected | None:
    i = rng.choice(mid_caller_lines(conv))
    lang = rng.choice(sorted(FOREIGN_LINES))
    return edit_step(conv, i, replace(conv.line(i), text=FOREIGN_LINES[lang]), f"line in {lang}")


def line_not_said(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The caller meant its line but its recording does not carry it: silent, or the line's
    facts (or, without facts, its second half) missing from what was said. The call's last
    caller line is never the silent one: a last line not spoken is the call ending before it,
    which the caller is not blamed for."""
    lines = conv.lines("user")
    i = rng.choice(lines)
    text = conv.line(i).text
    silent = rng.random() < 0.4 or len(text.split()) < 4
    if silent and i == lines[-1] and len(lines) > 1:
        i = rng.choice(lines[:-1])
    if silent:
        return edit_step(conv, i, replace(conv.line(i), spoken=""), "line not spoken at all")
    words = text.split()
    facts = [f for f in digit_facts(conv) if f.lower() in text.lower()]
    spoken = re.sub("|".join(re.escape(f) for f in facts), "", text, flags=re.I) if facts else ""
    if not facts or spoken.strip() == text.strip():
        spoken = " ".join(words[: max(1, len(words) // 2)])
    return edit_step(conv, i, replace(conv.line(i), spoken=spoken), f"said {spoken!r}")


def forbidden_escalation(conv: RefConversation, rng: random.Random) -> Injected | None:
    rules = str((conv.goal.get("decision_tree") or {}).get("escalation_behavior") or "")
    if not re.search(r"\bdo not ask\b[^.]*\b(supervisor|live agent|manager)", rules, re.I):
        return None  # the goal allows escalation: asking is not a fault there
    i = rng.choice(mid_caller_lines(conv))
    ask = rng.choice(ESCALATIONS)
    return edit_step(conv, i, replace(conv.line(i), text=f"{conv.line(i).text} {ask}"), ask)


CALLER_FAULTS: dict[str, tuple[Party, Injector]] = {
    "invented_fact": ("caller", invented_fact),
    "withheld_fact": ("caller", withheld_fact),
    "early_hangup": ("caller", early_hangup),
    "outside_goal": ("caller", outside_goal),
    "wrong_language": ("caller", wrong_language),
    "line_not_said": ("caller", line_not_said),
    "forbidden_escalation": ("caller", forbidden_escalation),
}
