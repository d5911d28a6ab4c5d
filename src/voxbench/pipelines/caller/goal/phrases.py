"""The goal caller's few phrasings: a seeded choice among equivalents, styled by the persona.

Content comes from the scenario (facts, quoted lines, intents); these templates only frame
it. A trial's seed picks among equivalent wordings, so trials differ in words and never in
what is disclosed or decided. The persona sets style: a curt caller drops the pleasantries.
"""

from __future__ import annotations

import random
import re

PHRASES: dict[str, tuple[str, ...]] = {
    "yes": ("Yes, that's correct.", "Yes, that's right.", "Yes, correct."),
    "no_thanks": ("No, thank you.", "No thanks, that's not needed.", "No, thanks."),
    "yes_ready": ("Yes.", "Yes, I can.", "Yes, go ahead."),
    "yes_go": ("Yes, please go ahead.", "Yes, go ahead.", "Yes, please do that."),
    "no_offer": ("No, that doesn't work for me.", "No, I can't accept that.", "No, that won't work."),
    "choose": ("{option}, please.", "I'll take {option}.", "Let's go with {option}."),
    "correct": ("No, that's not right. {fact}", "That's not correct. {fact}"),
    "fact": ("My {label} {be} {value}.", "The {label} {be} {value}."),
    "route": ("That's {part}{route}.", "It's {part}{route}.", "That's for {part}{route}."),
    "stays": ("The {label} stays {value}.", "Keep the {label} on {value}.", "The {label} stays as it is, {value}."),
    "full_name": ("My name is {name}.", "My name's {name}.", "My full name is {name}."),
    "ranked": ("{first} if available, otherwise {second}.", "{first} please, or {second} if not."),
    "dont_have": (
        "Sorry, I don't have that information.",
        "I'm afraid I don't have that.",
        "I don't have that, sorry.",
    ),
    "not_sure": ("I'm not sure.", "I don't know, sorry.", "I'm not sure, to be honest."),
    "dont_have_field": (
        "I don't have the {field}.",
        "Sorry, I don't have the {field}.",
        "I'm afraid I don't have the {field}.",
    ),
    "decline_transfer": (
        "No, I don't want to be transferred.",
        "No thanks, I don't need a transfer.",
        "No, please don't transfer me.",
    ),
    "accept_transfer": ("Yes, please transfer me.", "Yes, transfer me please.", "Yes, please connect me."),
    "fixed": ("Yes, that fixed it. It's working now.", "That worked, it's fine now.", "Yes, it works now."),
    "not_fixed": (
        "I already tried that. It's still not working.",
        "I did that already, and it still isn't working.",
        "That didn't fix it. It's still not working.",
    ),
    "follow_up": (
        "Is there really no other way to do it?",
        "Is there any other option?",
        "Is there anything else you can do?",
    ),
    "ok": ("Okay.", "Alright.", "Okay, thanks."),
    "bye_done": ("Great, thank you. Goodbye.", "Thanks for your help. Goodbye.", "Perfect, thanks. Bye."),
    "bye_nothing": (  # the trees' edge case: 'say no, thank them and end the call'
        "No, that's all. Thanks, goodbye.",
        "No, that's everything. Thanks, bye.",
        "No, that's it. Thank you, goodbye.",
    ),
    "no_thanks_bye": (  # an offer outside the goal once every request is done: decline and end
        "No, that's all, thanks. Goodbye.",
        "No thanks, that's everything. Goodbye.",
        "No, thank you. That's all I needed. Goodbye.",
    ),
    "ask_rest": (  # told part of what it calls to find out: the rest, in the goal's words
        "Thanks. I still need to know {what}.",
        "Thank you. Could you also tell me {what}?",
        "Thanks. I'd also like to know {what}.",
    ),
    "bye_give_up": (
        "Okay, I understand. Goodbye.",
        "Alright, I'll leave it there. Goodbye.",
        "Okay, thanks anyway. Goodbye.",
    ),
    "bye": ("Goodbye.", "Bye.", "Thanks, goodbye."),
    "said_before": ("As I said, {rest}", "Like I mentioned, {rest}", "As I mentioned, {rest}"),
    "asked_before": ("Again, {rest}", "I'll ask again: {rest}", "Just to ask again, {rest}"),
    "bye_repeated": (  # the same content asked a third time, nothing moved on: the tree's failure path
        "I've given that a few times now. I'll call back later. Goodbye.",
        "I've said that a few times now. I'll call back later. Goodbye.",
        "I've told you that a few times now. I'll try again later. Goodbye.",
    ),
    "next_request": (
        "Yes, I also need help with something else: {intent}.",
        "Yes, one more thing: {intent}.",
        "Yes. Next, {intent}.",
    ),
    "still_open": (
        "My request isn't done yet: {intent}.",
        "I still need help with my request: {intent}.",
        "I still need this done: {intent}.",
    ),
    "push_back": (
        "I understand, but this is important. Can you please make an exception?",
        "I really need this done. Is there no way you can do it?",
        "Please, can you check again? I really need this.",
    ),
    "restate": ("{goal}", "As I said, {goal_lc}", "{goal}"),
    "check_in": (
        "Hello? Are you still there?",
        "Hello, are you still on the line?",
        "Hi, are you still there?",
    ),
}
_YES_NO = re.compile(
    r"^((?:(?:yes|no|thanks|thank you|okay|ok|alright|sure|next|actually)\b[^.!?]*[.!?]\s*)*)(.*)$",
    re.I | re.S,
)
"""A line's leading answer to the new turn (a yes, no or thanks), kept first when it is said again;
a sentence that already says it is said again ('Next, I need ...', 'Actually, my request isn't
done yet: ...') needs no 'As I said'."""
_KEEP_CASE = re.compile(r"^(I\b|I'|[A-Z]{2,}\b|[A-Z] [A-Z]\b)")
_PLEASANTRIES = re.compile(r"^(okay|alright|great|perfect|thanks?|thank you)[,.]?\s+", re.I)
_CURT = re.compile(r"\b(direct|curt|to the point|brief|concise|short|impatient|no time)\b", re.I)


class Phrasing:
    """Picks a template per kind with a seeded RNG; a curt persona drops leading pleasantries."""

    def __init__(self, seed: int = 0, persona: str = "") -> None:
        self._rng = random.Random(seed)
        self.curt = bool(_CURT.search(persona or ""))

    def say(self, kind: str, **slots: str) -> str:
        text = self._rng.choice(PHRASES[kind]).format(**slots)
        if self.curt and kind not in ("bye_done", "bye_give_up", "bye", "bye_nothing"):
            text = _PLEASANTRIES.sub("", text)
            text = text[:1].upper() + text[1:]
        return text

    def again(self, text: str) -> str:
        """The same content said a second time, as a person does: 'Yes. As I said, my last name is
        Lima.' (after a leading yes, no or thanks, which answers the new turn; a question asked
        again is 'Thank you. Again, could you tell me the gate?', not 'As I said, ...')."""
        m = _YES_NO.match(text.strip())
        lead, rest = (m.group(1) or "", m.group(2)) if m else ("", text.strip())
        if not rest:
            return text
        rest = rest if _KEEP_CASE.match(rest) else rest[:1].lower() + rest[1:]
        kind = "asked_before" if rest.rstrip().endswith("?") else "said_before"
        return f"{lead}{self.say(kind, rest=rest)}"


_PRONOUNS = [
    (r"\byou are\b", "I am"),
    (r"\byou're\b", "I'm"),
    (r"\byou've\b", "I've"),
    (r"\byou'll\b", "I'll"),
    (r"\byou were\b", "I was"),
    (r"\byourself\b", "myself"),
    (r"\byours\b", "mine"),
    (r"\byour\b", "my"),
    (r"(^|[.;,]\s*|\b(?:and|but|so|that|if|because|when|while|or|since|until|unless)\s+)you\b", r"\1I"),
    (r"\byou\b", "me"),
]


def first_person(text: str) -> str:
    """A goal written to the caller ('You want your flight...') as the caller says it ('I want my flight...')."""
    out = text.strip()
    for pat, rep in _PRONOUNS:
        out = re.sub(pat, rep, out, flags=re.I)
    out = re.sub(r"\bI wants\b", "I want", out)
    return out[:1].upper() + out[1:]


def as_need(intent: str) -> str:
    """An intent label ('Update malpractice coverage record') as a request ('I need to update ...')."""
    s = intent.strip().rstrip(".")
    if re.match(r"^(i|my|you|your)\b", s, re.I):  # 'You ordered a kettle by mistake and want...'
        return first_person(s)
    return "I need to " + s[:1].lower() + s[1:]
