"""A fake judge implementing the Judge protocol: canned replies keyed by prompt text."""

from __future__ import annotations

from voxbench.eval.judges import JudgeReply


class FakeJudge:
    def __init__(self, replies: dict[str, str], model: str = "fake-judge") -> None:
        self.replies = replies  # substring of the system prompt -> reply text
        self.model = model
        self.calls: list[tuple[str, str]] = []
        self.audio: list[bytes | None] = []  # what an audio judge was given, per call

    def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply:
        self.calls.append((system, user))
        self.audio.append(audio_wav)
        for key, text in self.replies.items():
            if key in system:
                return JudgeReply(text=text, model=self.model, prompt_tokens=10, completion_tokens=5)
        raise RuntimeError("fake judge has no reply for this prompt")
