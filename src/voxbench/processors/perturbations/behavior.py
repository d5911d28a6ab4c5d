"""Caller behaviour as data: barge-ins, backchannels, side speech, vocal tics, pauses, disfluencies,
personas.

Pure pydantic + stdlib. A :class:`CallerBehavior` sits in a :class:`~.config.Condition` next to
the audio ops, so "impatient+noise" is one reproducible condition. The live half (injecting the
acts into the caller's outgoing audio on time) is :mod:`.live`; the text half (disfluent or
forgetful lines for the trace caller, persona instructions for the LLM caller) is here.

Every act the caller performs is recorded as a ``CallerAct`` event, so eval can ask whether the
agent yielded to a barge-in (it should) or to a backchannel / side speech / vocal tic (it should
not), and whether it answered side speech or a vocal tic in silence (it should not).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _B(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BargeInPoint(_B):
    """Interrupt the agent ``after_ms`` into its speech on agent turn ``turn`` (0 = greeting)."""

    turn: int = Field(ge=0, le=200)
    after_ms: float = Field(default=800.0, ge=0.0, le=30000.0)
    text: str = Field(default="Sorry, sorry, can I just say something?", min_length=1, max_length=200)


class BackchannelConfig(_B):
    """Short listener tokens while the agent speaks ("mm-hmm"); a good agent talks on."""

    probability: float = Field(default=0.0, ge=0.0, le=1.0, description="chance per agent turn")
    min_agent_speech_ms: float = Field(default=1200.0, ge=0.0, le=30000.0)
    texts: tuple[str, ...] = ("mm-hmm", "okay", "uh-huh", "right", "yeah")
    gain_db: float = Field(default=-4.0, ge=-30.0, le=6.0)


class SideSpeechConfig(_B):
    """Speech not addressed to the agent (to someone in the room), quieter, while the agent speaks."""

    probability: float = Field(default=0.0, ge=0.0, le=1.0, description="chance per agent turn")
    min_agent_speech_ms: float = Field(default=800.0, ge=0.0, le=30000.0)
    texts: tuple[str, ...] = (
        "Hang on, I'm on the phone.",
        "Can you turn that down a bit?",
        "No, the blue one, by the door.",
        "Just a second, sweetie.",
    )
    gain_db: float = Field(default=-10.0, ge=-30.0, le=6.0, description="turned away from the phone")
    silence_probability: float = Field(
        default=0.0, ge=0.0, le=1.0, description="chance per agent turn, in the silence after its speech"
    )


class VocalTicConfig(_B):
    """Vocal tics ("um", "ahem") that are no turn: a good agent neither yields to one during its
    speech nor answers one in silence (τ-voice's S_VT). A cough is not synthesised: the
    clips are the caller's own TTS voice saying the texts."""

    probability: float = Field(
        default=0.0, ge=0.0, le=1.0, description="chance per agent turn, in its speech"
    )
    silence_probability: float = Field(
        default=0.0, ge=0.0, le=1.0, description="chance per agent turn, in the silence after its speech"
    )
    min_agent_speech_ms: float = Field(default=600.0, ge=0.0, le=30000.0)
    texts: tuple[str, ...] = ("um", "uhh", "hmm", "ahem")
    gain_db: float = Field(default=-6.0, ge=-30.0, le=6.0)


class PauseConfig(_B):
    """Mid-utterance pauses: the caller stops ``duration_ms`` into a line, then carries on."""

    probability: float = Field(default=0.0, ge=0.0, le=1.0, description="chance per caller utterance")
    after_ms: tuple[float, float] = (600.0, 1500.0)
    duration_ms: tuple[float, float] = (900.0, 1800.0)


class DisfluencyConfig(_B):
    """Fillers and restarts written into the caller's lines ("um, I- I need ...")."""

    probability: float = Field(default=0.0, ge=0.0, le=1.0, description="chance per line")
    fillers: tuple[str, ...] = ("um", "uh", "you know", "let me see")


Persona = Literal["default", "impatient", "forgetful"]


class CallerBehavior(_B):
    """Everything the caller does besides saying its lines. The default does nothing."""

    barge_in: tuple[BargeInPoint, ...] = ()
    backchannel: BackchannelConfig = Field(default_factory=BackchannelConfig)
    side_speech: SideSpeechConfig = Field(default_factory=SideSpeechConfig)
    vocal_tic: VocalTicConfig = Field(default_factory=VocalTicConfig)
    pauses: PauseConfig = Field(default_factory=PauseConfig)
    disfluency: DisfluencyConfig = Field(default_factory=DisfluencyConfig)
    persona: Persona = "default"

    @property
    def is_default(self) -> bool:
        return self == CallerBehavior()

    @property
    def injects_audio(self) -> bool:
        """Whether the live caller must mix acts into its audio (barge-ins, tokens, pauses)."""
        return bool(
            self.barge_in
            or self.backchannel.probability
            or self.side_speech.probability
            or self.side_speech.silence_probability
            or self.vocal_tic.probability
            or self.vocal_tic.silence_probability
            or self.pauses.probability
        )

    def merge(self, other: CallerBehavior) -> CallerBehavior:
        """Field-wise: what ``other`` sets (differs from the default) wins; barge-ins add up."""
        default = CallerBehavior()
        data = {}
        for name in type(self).model_fields:
            mine, theirs = getattr(self, name), getattr(other, name)
            data[name] = mine if theirs == getattr(default, name) else theirs
        data["barge_in"] = (*self.barge_in, *other.barge_in)
        return CallerBehavior(**data)

    def clip_texts(self) -> list[str]:
        """Every text the live caller may inject (synthesised before the call starts)."""
        texts = [b.text for b in self.barge_in]
        if self.backchannel.probability:
            texts += self.backchannel.texts
        if self.side_speech.probability or self.side_speech.silence_probability:
            texts += self.side_speech.texts
        if self.vocal_tic.probability or self.vocal_tic.silence_probability:
            texts += self.vocal_tic.texts
        return list(dict.fromkeys(texts))


# --------------------------------------------------------------------------------------------
# The text half
# --------------------------------------------------------------------------------------------

_HAS_DETAIL = re.compile(r"\d|\b[A-Z0-9]{5,}\b")
FORGOT_LINE = "Hmm, hold on, I need to find that. One second."

PERSONA_INSTRUCTIONS: dict[str, str] = {
    "impatient": (
        "You are in a hurry and a little impatient: keep every turn very short, sigh or say so "
        "when something takes long ('come on', 'I don't have all day'), and if the agent repeats "
        "itself, cut in to move it along."
    ),
    "forgetful": (
        "You are a bit forgetful: the first time the agent asks for a code, number or date, say "
        "you need a moment to find it, and give it exactly as written only when asked again. "
        "Once, ask the agent to repeat what it just said."
    ),
}


def disfluent(text: str, rng: random.Random, fillers: Sequence[str]) -> str:
    """Add one filler near the start and, for longer lines, one restart ("I- I need")."""
    words = text.split()
    if not words:
        return text
    filler = rng.choice(list(fillers))
    at = rng.randrange(0, min(3, len(words)))
    words.insert(at, f"{filler},")
    if len(words) > 6:
        i = rng.randrange(at + 1, len(words))
        w = words[i].strip(",.?!")
        if w.isalpha():
            words.insert(i, f"{w}-")
    out = " ".join(words)
    return out[0].upper() + out[1:]


def behave_lines(lines: Sequence[str], behavior: CallerBehavior, rng: random.Random) -> list[str]:
    """The trace caller's lines under ``behavior``: disfluencies, and (forgetful) a stall
    line before the first line that carries a code or number."""
    out: list[str] = []
    forgot = behavior.persona != "forgetful"
    p = behavior.disfluency.probability
    for i, line in enumerate(lines):
        if not forgot and i > 0 and _HAS_DETAIL.search(line):
            out.append(FORGOT_LINE)
            forgot = True
        out.append(disfluent(line, rng, behavior.disfluency.fillers) if p and rng.random() < p else line)
    return out


def persona_instruction(behavior: CallerBehavior) -> str | None:
    return PERSONA_INSTRUCTIONS.get(behavior.persona)
