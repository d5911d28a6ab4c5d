"""A scripted conversation fn whose caller transcripts degrade with the condition (for tests).

Like ``scripted_conversation`` (no audio, no pipecat), plus timed speech and one agent
transcript of each reference caller line: clean is heard exactly, ``noise`` loses words,
``accent`` mishears one word per line, ``accent+noise`` both. Deterministic in the job seed.
"""

from __future__ import annotations

import random
from pathlib import Path

from voxbench.orchestrator.jobs import ConversationJob
from voxbench.orchestrator.scripted import scripted_conversation
from voxbench.records import EndEvent, Speech, Transcript, Utterance, read_record, write_record
from voxbench.scenarios import load_dataset


def _heard(line: str, condition: str, rng: random.Random) -> str:
    words = line.split()
    if "accent" in condition and words:
        i = rng.randrange(len(words))
        words[i] = "uh" if len(words[i]) > 3 else "the"
    if "noise" in condition:
        words = [w for j, w in enumerate(words) if j % 3 != 1 or len(words) < 3]
    return " ".join(words)


def perturbed_scripted(job: ConversationJob) -> Path:
    out = scripted_conversation(job)
    b = read_record(out)
    dom = load_dataset(job.dataset, [job.domain]).domains[job.domain]
    sc = dom.scenarios[job.scenario_id]
    trace = sc.ground_truth.expected_trace.trace if sc.ground_truth.expected_trace else []
    resolver = dom.resolver(sc, job.lang)
    lines = [
        str(resolver.resolve(e.utterance)) for e in trace if e.event_type == "user_utterance" and e.utterance
    ]
    rng = random.Random(job.seed)
    events: list = [e for e in b.events if not isinstance(e, Utterance | EndEvent)]
    t = 0.5
    for line in lines:
        events += [
            Speech(t=t, channel="user", state="onset"),
            Utterance(t=t, side="user", channel="user", text=line),
            Speech(t=t + 1.5, channel="user", state="offset"),
            Transcript(t=t + 1.7, side="agent", channel="user", text=_heard(line, job.condition, rng)),
            Speech(t=t + 2.3, channel="agent", state="onset"),
            Utterance(t=t + 2.3, side="agent", channel="agent", text="Okay, noted."),
            Speech(t=t + 3.3, channel="agent", state="offset"),
        ]
        t += 4.0
    events.append(EndEvent(t=t, reason="end_call"))
    events.sort(key=lambda e: e.t)
    return write_record(out, b.record, events=events)
