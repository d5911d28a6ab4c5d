"""One fault injected into a reference conversation, per kind, for any scenario.

Every injection is defined on the conversation's structure (caller lines, agent questions,
the agent's write tool calls, the caller's facts in `information_required`), never on a
scenario's words, and draws its place and wording from a seeded `random.Random`. An
injection that does not apply to a scenario (no write call to drop, escalation allowed by
its goal) returns None and is counted as not applicable.

The wordings are the tables below (data, shared by every scenario). They were written with
the validator's rules known, so the measurement says how the rules do on *these* phrasings of
each fault, in conversations the rules were not written on; a live caller's phrasings vary more.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import replace
from typing import Any

from voxbench.eval.gateset._steps import (
    Injected,
    Injector,
    Party,
    given_facts,
    mid_caller_lines,
    reply_to,
)
from voxbench.eval.gateset.asked import ASKED_FAULTS
from voxbench.eval.gateset.conversation import Held, Line, RefConversation, Step, Tool
from voxbench.eval.gateset.offered import OFFERED_FAULTS
from voxbench.eval.gateset.present import PRESENT_FAULTS
from voxbench.eval.offline._caller_end import MIN_QUESTION, closing_question, offers_to_end, same_question
from voxbench.eval.offline._caller_facts import field_words, holds
from voxbench.records.voice import split_sentences

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
REFUSALS = (
    "I'm sorry, but I'm not able to help with that request.",
    "Unfortunately, I can't make that change for you.",
    "I'm afraid that isn't something I can do over the phone.",
)
GIVE_UPS = ("Okay. Thanks anyway, goodbye.", "Alright, I'll leave it then. Bye.", "That's a shame. Goodbye.")
LOOP_GIVE_UPS = ("This isn't getting anywhere. Goodbye.", "I've told you several times now. Bye.")
CHECK_INS = ("Hello? Are you still there?", "Hi, can you hear me?", "Hello? Is anyone there?")
SILENT_GOODBYES = ("I'll try again later. Goodbye.", "Okay, I'm hanging up. Bye.")
TRANSFERS = (
    "Let me transfer you to a live agent who can help with that.",
    "I'm going to connect you with one of our specialists now.",
)
OPENINGS = (
    "Hello! How can I help you today?",
    "Thank you for calling. How may I help you?",
    "Hi there, what can I do for you today?",
)
RESTART_LEADS = ("", "Hello! I'm here. ", "Sorry about that. ")
"""Before the opening line said again: a live agent restarting said "Hello! I'm here." first."""
TRANSFER_REPLIES = ("No, I didn't ask for a transfer. Goodbye.", "I don't want to be transferred. Bye.")

AGENT_PROMPTS = ("Are you still there?", "Take your time.", "Hello? Can you hear me?", "I'm still here.")
PAUSE_S = (2.5, 7.5)
"""An injected harness pause's length: longer than an agent's turn-end timeout (a 0.2 s VAD
stop, then smart-turn or a 0.6 s timeout) and no longer than the caller's voice holds a line
(``MAX_SILENCE_S``, 8 s, in ``records/voice.py``)."""


def _writes(conv: RefConversation) -> list[int]:
    kinds = {t.name: t.tool_type for t in conv.dd.agent.tools}
    return [i for i in conv.tools() if kinds.get(conv.steps[i].name) == "write"]  # type: ignore[union-attr]


def _before_first_write(conv: RefConversation) -> int:
    w = _writes(conv)
    return w[0] if w else max(len(conv.steps) - 2, 1)


def _facts(conv: RefConversation) -> list[str]:
    info = conv.goal.get("information_required") or {}
    vals = [str(v) for v in info.values() if isinstance(v, str | int) and not isinstance(v, bool)]
    return [v for v in vals if len(v) >= 4 and any(c.isdigit() for c in v)]


def _agent_questions(conv: RefConversation, before: int) -> list[int]:
    """Agent lines asking the caller something, after the first caller line and before `before`."""
    first_user = conv.lines("user")[0]
    return [i for i in conv.lines("agent") if first_user < i < before and "?" in conv.line(i).text]


def _fabricate(value: str, rng: random.Random) -> str:
    out = [
        rng.choice(string.digits) if c.isdigit() else rng.choice(string.ascii_uppercase) if c.isalpha() else c
        for c in value
    ]
    return "".join(out) if "".join(out) != value else _fabricate(value, rng)


def invented_fact(conv: RefConversation, rng: random.Random) -> Injected | None:
    """A fact of the caller replaced by a made-up one of the same shape; or, when no caller
    line states one, a made-up identifier added to a caller line."""
    for fact in rng.sample(_facts(conv), len(_facts(conv))):
        hits = [i for i in conv.lines("user") if fact.lower() in conv.line(i).text.lower()]
        if hits:
            i = rng.choice(hits)
            fake = _fabricate(fact, rng)
            text = re.sub(re.escape(fact), fake, conv.line(i).text, flags=re.I)
            return _edit(conv, i, replace(conv.line(i), text=text), f"{fact!r} -> {fake!r}")
    i = rng.choice(mid_caller_lines(conv))
    code = _fabricate("AB12CD9", rng)
    text = f"{conv.line(i).text} My member number is {code}."
    return _edit(conv, i, replace(conv.line(i), text=text), f"added member number {code}")


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
    return _edit(conv, i, replace(conv.line(i), text=rng.choice(WITHHOLDS)), "fact withheld when asked")


def early_hangup(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The caller leaves right after an agent question, before the task's first write, while
    the agent was progressing (its question neither offered a transfer nor wrapped up)."""
    qs = [
        i for i in _agent_questions(conv, _before_first_write(conv)) if not offers_to_end(conv.line(i).text)
    ]
    if not qs:
        return None
    i = rng.choice(qs)
    steps = [*conv.steps[: i + 1], Line("user", rng.choice(HANG_UPS))]
    return Injected(conv.copy(steps, "end_call"), i + 1, "caller hung up after an agent question")


def outside_goal(conv: RefConversation, rng: random.Random) -> Injected | None:
    i = rng.choice(mid_caller_lines(conv))
    extra = f"{rng.choice(EXTRA_OPENERS)} {rng.choice(EXTRA_REQUESTS)}."
    return _edit(conv, i, replace(conv.line(i), text=f"{conv.line(i).text} {extra}"), extra)


def wrong_language(conv: RefConversation, rng: random.Random) -> Injected | None:
    i = rng.choice(mid_caller_lines(conv))
    lang = rng.choice(sorted(FOREIGN_LINES))
    return _edit(conv, i, replace(conv.line(i), text=FOREIGN_LINES[lang]), f"line in {lang}")


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
        return _edit(conv, i, replace(conv.line(i), spoken=""), "line not spoken at all")
    words = text.split()
    facts = [f for f in _facts(conv) if f.lower() in text.lower()]
    spoken = re.sub("|".join(re.escape(f) for f in facts), "", text, flags=re.I) if facts else ""
    if not facts or spoken.strip() == text.strip():
        spoken = " ".join(words[: max(1, len(words) // 2)])
    return _edit(conv, i, replace(conv.line(i), spoken=spoken), f"said {spoken!r}")


def forbidden_escalation(conv: RefConversation, rng: random.Random) -> Injected | None:
    rules = str((conv.goal.get("decision_tree") or {}).get("escalation_behavior") or "")
    if not re.search(r"\bdo not ask\b[^.]*\b(supervisor|live agent|manager)", rules, re.I):
        return None  # the goal allows escalation: asking is not a fault there
    i = rng.choice(mid_caller_lines(conv))
    ask = rng.choice(ESCALATIONS)
    return _edit(conv, i, replace(conv.line(i), text=f"{conv.line(i).text} {ask}"), ask)


def _paused(conv: RefConversation, rng: random.Random, when: str) -> Injected | None:
    """A caller line followed by the agent's reply paused by the harness: after one of its
    sentences, or before its first word when it has one, with the agent timed by `when`.
    "into": its voice starts inside the pause (the reply to the half said; before the first
    word, a line of `AGENT_PROMPTS` into the silence); "decided" (a pause after a sentence):
    the reply just after the caller resumed, its turn end the one inside the pause; "waited":
    the reply as in the reference, after the whole line."""
    replies = {i: reply_to(conv, i) for i in conv.lines("user")}
    cands = [i for i, j in replies.items() if j is not None]
    if not cands:
        return None
    i = rng.choice(cands)
    j = replies[i]
    assert j is not None
    line = conv.line(i)
    n = len(split_sentences(line.text))
    k = rng.randrange(1, n) if n > 1 else 0
    held = Held(k, round(rng.uniform(*PAUSE_S), 2))
    steps = list(conv.steps)
    steps[i] = replace(line, held=held)
    if when == "decided" and k == 0:
        when = "into"  # before the first word the agent's last turn end was before its last line
    if when == "into":
        cue = round(rng.uniform(0.6, held.seconds - 0.3), 2)
        if k == 0:
            steps.insert(i + 1, Line("agent", rng.choice(AGENT_PROMPTS), cue_s=cue))
        else:
            steps[j] = replace(conv.line(j), cue_s=cue)
    elif when == "decided":
        # before the agent's VAD stop after the resumed words: a 3-character sentence is said
        # in 0.26 s (``SECONDS_PER_CHAR``), its stop 0.25 s later
        cue = round(held.seconds + rng.uniform(0.2, 0.5), 2)
        steps[j] = replace(conv.line(j), cue_s=cue)
    what = f"{held.seconds:.2f} s harness pause before sentence {k}; agent reply {when}"
    return Injected(conv.copy(steps), i, what)


def harness_pause(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The harness stalled the caller's voice mid-line and the agent answered into the pause:
    its voice started inside it, or just after the caller resumed on a turn end inside it."""
    return _paused(conv, rng, rng.choice(("into", "decided")))


def harness_pause_waited(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The control of `harness_pause`: the same pause, the agent waiting for the whole line."""
    return _paused(conv, rng, "waited")


def _edit(conv: RefConversation, i: int, step: Step, what: str) -> Injected:
    steps = list(conv.steps)
    steps[i] = step
    return Injected(conv.copy(steps), i, what)


def completion_without_write(conv: RefConversation, rng: random.Random) -> Injected | None:
    """Every write call dropped; the agent still says what it did."""
    w = set(_writes(conv))
    if not w:
        return None
    steps = [s for i, s in enumerate(conv.steps) if i not in w]
    return Injected(conv.copy(steps), min(w), f"dropped {len(w)} write call(s)")


def _altered(v: Any, rng: random.Random) -> Any:
    if isinstance(v, bool):
        return not v
    if isinstance(v, int | float):
        return v + rng.choice([1, 2, 7])
    if isinstance(v, str) and v:
        return _fabricate(v, rng) if any(c.isalnum() for c in v) else v + "x"
    return None


def wrong_write(conv: RefConversation, rng: random.Random) -> Injected | None:
    """One argument of one write call changed; the agent's lines unchanged."""
    for i in rng.sample(_writes(conv), len(_writes(conv))):
        tool = conv.steps[i]
        assert isinstance(tool, Tool)
        keys = [k for k, v in tool.params.items() if _altered(v, rng) is not None]
        if keys:
            k = rng.choice(keys)
            params = {**tool.params, k: _altered(tool.params[k], rng)}
            return _edit(conv, i, replace(tool, params=params), f"{tool.name}.{k} changed")
    return None


def refusal(conv: RefConversation, rng: random.Random) -> Injected | None:
    cands = [i for i in conv.lines("agent") if conv.lines("user")[0] < i < _before_first_write(conv)]
    if not cands:
        return None
    i = rng.choice(cands)
    steps = [*conv.steps[:i], Line("agent", rng.choice(REFUSALS)), Line("user", rng.choice(GIVE_UPS))]
    return Injected(conv.copy(steps, "end_call"), i, "agent refused")


def loop(conv: RefConversation, rng: random.Random) -> Injected | None:
    """An agent question asked three more times, the caller answering each time, then leaving."""
    qs = [i for i in _agent_questions(conv, _before_first_write(conv)) if i + 1 < len(conv.steps)]
    qs = [i for i in qs if isinstance(conv.steps[i + 1], Line) and conv.line(i + 1).who == "user"]
    if not qs:
        return None
    i = rng.choice(qs)
    ask, answer = conv.steps[i], conv.steps[i + 1]
    steps = [*conv.steps[: i + 2], ask, answer, ask, answer, ask, Line("user", rng.choice(LOOP_GIVE_UPS))]
    return Injected(conv.copy(steps, "end_call"), i, "agent repeated its question")


def restart(conv: RefConversation, rng: random.Random) -> Injected | None:
    """After the caller answered one of its questions, the agent starts the call over with its
    opening line and the caller leaves: a reset, not a caller hanging up on an agent that was
    progressing. The rule reads the agent's own opening; a reference that opens with the caller
    (EVA's do: its agent greets off the trace) gets one of `OPENINGS` first, as a live agent's
    greeting. Needs a later question of another wording (the agent went on before it reset)."""
    steps = list(conv.steps)
    opening = [i for i in conv.lines("agent") if i < conv.lines("user")[0]]
    if not opening:
        steps.insert(0, Line("agent", rng.choice(OPENINGS)))
    ref = conv.copy(steps)
    first = ref.line([i for i in ref.lines("agent") if i < ref.lines("user")[0]][-1])
    q = closing_question(first.text)
    if len(q) < MIN_QUESTION:
        return None
    qs = [
        i for i in _agent_questions(ref, _before_first_write(ref))
        if i + 1 < len(ref.steps) and isinstance(ref.steps[i + 1], Line) and ref.line(i + 1).who == "user"
        and not same_question(q, ref.line(i).text)
    ]  # fmt: skip
    if not qs:
        return None
    i = rng.choice(qs)
    tail = [Line("agent", f"{rng.choice(RESTART_LEADS)}{first.text}"), Line("user", rng.choice(GIVE_UPS))]
    return Injected(ref.copy([*ref.steps[: i + 2], *tail], "end_call"), i + 2, "agent started the call over")


def long_silence(conv: RefConversation, rng: random.Random) -> Injected | None:
    """After a caller line the agent never answers; the caller checks in (or just waits) and leaves."""
    cands = [i for i in conv.lines("user") if i < _before_first_write(conv)]
    i = rng.choice(cands)
    tail: list[Step] = []
    if rng.random() < 0.75:
        tail.append(Line("user", rng.choice(CHECK_INS), wait_s=rng.uniform(15, 30)))
    tail.append(Line("user", rng.choice(SILENT_GOODBYES), wait_s=rng.uniform(15, 30)))
    return Injected(conv.copy([*conv.steps[: i + 1], *tail], "end_call"), i, "agent went silent")


def unrequested_transfer(conv: RefConversation, rng: random.Random) -> Injected | None:
    cands = [i for i in conv.lines("agent") if conv.lines("user")[0] < i < _before_first_write(conv)]
    if not cands:
        return None
    i = rng.choice(cands)
    steps: list[Step] = [*conv.steps[:i], Line("agent", rng.choice(TRANSFERS))]
    if any(t.name == "transfer_to_agent" for t in conv.dd.agent.tools):
        steps.append(
            Tool(
                "transfer_to_agent", {"transfer_reason": "agent_initiated", "issue_summary": "caller request"}
            )
        )
    if rng.random() < 0.5:
        return Injected(conv.copy(steps, "transfer"), i, "agent transferred the call")
    steps.append(Line("user", rng.choice(TRANSFER_REPLIES)))
    return Injected(conv.copy(steps, "end_call"), i, "agent transferred; caller hung up")


_FORBIDS_ESCALATION = re.compile(
    r"\bdo not ask\b[^.]*\b(supervisor|live agent|manager)|\bnever speak to a (live agent|person|human)", re.I
)


def reference_fault(conv: RefConversation) -> str | None:
    """Why a reference conversation is not clean (None when it is): its caller broke its own
    instructions where the structure shows it. The only such class: the call ends transferred
    to a person although the goal forbids escalation (the caller asked for the transfer, or
    accepted one it had to decline). Such a scenario gives no records: its "clean" record
    would carry a caller fault, and so would every agent-fault variant of it."""
    rules = str((conv.goal.get("decision_tree") or {}).get("escalation_behavior") or "")
    if conv.end_reason == "transfer" and _FORBIDS_ESCALATION.search(rules):
        return "reference_caller_transferred_against_goal"
    return None


FAULTS: dict[str, tuple[Party, Injector]] = {
    "invented_fact": ("caller", invented_fact),
    "withheld_fact": ("caller", withheld_fact),
    "early_hangup": ("caller", early_hangup),
    "outside_goal": ("caller", outside_goal),
    "wrong_language": ("caller", wrong_language),
    "line_not_said": ("caller", line_not_said),
    "forbidden_escalation": ("caller", forbidden_escalation),
    "harness_pause": ("caller", harness_pause),
    "harness_pause_waited": ("none", harness_pause_waited),
    **ASKED_FAULTS,
    **OFFERED_FAULTS,
    **PRESENT_FAULTS,
    "completion_without_write": ("agent", completion_without_write),
    "wrong_write": ("agent", wrong_write),
    "refusal": ("agent", refusal),
    "loop": ("agent", loop),
    "restart": ("agent", restart),
    "long_silence": ("agent", long_silence),
    "unrequested_transfer": ("agent", unrequested_transfer),
}
