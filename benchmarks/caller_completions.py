"""How well the goal caller recognises a completion, against the reference agent's own write tools.

    python benchmarks/caller_completions.py [--data ../shared/eva-data] [--half dev|test|both]

A reference agent turn that comes right after one of the domain's *write* tools ran (``tool_type:
write`` in the agent config: ``submit_access_removal``, ``provision_new_account``; no read, auth
or system tool) is labelled *a write reported*: the agent has just done something, and its turn
says so (or that it failed: a write that returned an error counts too, for every reader alike). The
goal caller hears every reference turn in order (``benchmarks/goal_caller_cpu.py`` does the same)
and each turn is read two ways: the completion cues (its act's ``heard`` holds 'completed'), and the
request tracker (one of the caller's requests newly marked done or refused at that turn,
:class:`voxbench.pipelines.caller.goal.intents.IntentTracker`; a refusal counts too, so its false
alarms include the refusals). Printed per half of the
fixed split (``caller_check_halves``) and domain: labelled turns, and for each reader the labelled
turns it read as a completion (recall) and the unlabelled ones it read so (false alarms). Aggregate
counts only; ``--half dev`` (the default) prints the dev half alone.
"""

from __future__ import annotations

import argparse
from collections import Counter

from caller_check_halves import half

from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario, load_dataset

READERS = ("cues", "tracker")


def labelled_turns(scenario: Scenario, writes: set[str]) -> tuple[bool, list[tuple[str, bool]]]:
    """(the caller speaks first, [(agent turn, a write tool ran in it or just before it)]), grouped
    as :func:`voxbench.bench.reference.reference_turns` groups agent utterances."""
    trace = scenario.ground_truth.expected_trace
    turns: list[tuple[str, bool]] = []
    agent: list[str] = []
    wrote = opening = False
    for e in trace.trace if trace else []:
        if e.event_type == "tool_call":
            wrote = wrote or (e.tool_name or "") in writes
        elif e.event_type == "agent_utterance":
            agent.append(e.utterance or "")
        elif e.event_type == "user_utterance":
            if agent:
                turns.append((" ".join(agent), wrote))
                agent, wrote = [], False
            elif not turns:
                opening = True
    if agent:
        turns.append((" ".join(agent), wrote))
    return opening, turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/eva-data")
    ap.add_argument("--half", choices=("dev", "test", "both"), default="dev")
    args = ap.parse_args()
    n: Counter[tuple[str, str, str]] = Counter()
    for domain, dd in load_dataset(args.data, None).domains.items():
        writes = {t.name for t in dd.agent.tools if t.tool_type == "write"}
        for sc in dd.scenarios.values():
            h = half(domain, sc.id)
            if args.half != "both" and h != args.half:
                continue
            resolved = Scenario.model_validate(dd.resolver(sc, "en").resolve(sc.model_dump(mode="json")))
            opening, turns = labelled_turns(resolved, writes)
            caller = GoalCaller(resolved)
            if opening:
                caller.open()
            for text, wrote in turns:
                before = sum(caller.done)
                act = caller.respond(text)
                cues = "completed" in act.heard
                tracked = sum(caller.done) > before
                for d in (domain, "all"):
                    n[(h, d, "turns")] += 1
                    n[(h, d, "labelled")] += wrote
                    for name, read in zip(READERS, (cues, tracked), strict=True):
                        n[(h, d, f"{name} {'hit' if wrote else 'false'}")] += read
    print(
        f"{'half':5} {'domain':11} {'turns':>6} {'writes':>6}  "
        + "  ".join(f"{r + ' recall / false':>28}" for r in READERS)
    )
    for h in ("dev", "test"):
        for d in ("airline", "itsm", "medical_hr", "all"):
            if not n[(h, d, "turns")]:
                continue
            lab = n[(h, d, "labelled")]
            cells = [f"{n[(h, d, f'{r} hit')]:4} ({100 * n[(h, d, f'{r} hit')] / max(lab, 1):5.1f} %) / {n[(h, d, f'{r} false')]:4}"
                     for r in READERS]  # fmt: skip
            print(f"{h:5} {d:11} {n[(h, d, 'turns')]:6} {lab:6}  " + "  ".join(f"{c:>28}" for c in cells))


if __name__ == "__main__":
    main()
