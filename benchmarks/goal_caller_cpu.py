"""CPU time per goal-caller decision over every reference agent turn of an EVA-format folder.

    PYTHONPATH=src .venv/bin/python benchmarks/goal_caller_cpu.py [--data ../shared/eva-data]

Process time, not wall time: on a shared machine ``caller check``'s ms/turn moves with the load of
other jobs (2 ms at load 1, 9 ms at load 10 for the same caller); CPU time per decision does not.
Each scenario's caller hears all its reference agent turns, also after it would have ended.
"""

from __future__ import annotations

import argparse
import time

from voxbench.bench.reference import reference_turns
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario, load_dataset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/eva-data")
    args = ap.parse_args()
    turns, cpu = 0, 0.0
    for dd in load_dataset(args.data, None).domains.values():
        for sc in dd.scenarios.values():
            scenario = Scenario.model_validate(dd.resolver(sc, "en").resolve(sc.model_dump(mode="json")))
            caller = GoalCaller(scenario)
            caller.open()
            for agent, _ in reference_turns(scenario)[1]:
                t = time.process_time()
                caller.respond(agent)
                cpu += time.process_time() - t
                turns += 1
    print(f"{turns} agent turns, {1000 * cpu / max(turns, 1):.2f} ms CPU per decision")


if __name__ == "__main__":
    main()
