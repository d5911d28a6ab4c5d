"""A typo on the command line fails with one line: no pipecat banner or log lines first
(the CLI checks its input before it imports anything that imports pipecat)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
DATA = SRC / "voxbench" / "scenarios" / "data"

BAD = [
    ["talk", "--scenario", "nope"],
    ["call", "--data", str(DATA), "--domain", "airline", "--scenario", "bb.9", "--out", "{tmp}/c"],
    [
        "call",
        "--data",
        str(DATA),
        "--domain",
        "airline",
        "--scenario",
        "bb.1",
        "--condition",
        "bogus",
        "--out",
        "{tmp}/c",
    ],
    [
        "call",
        "--data",
        str(DATA),
        "--domain",
        "airline",
        "--scenario",
        "bb.1",
        "--agent",
        "nosuch",
        "--out",
        "{tmp}/c",
    ],
    ["run", "--agent", "nosuch", "--out", "{tmp}/r"],
    ["run", "--offline-default", "--scenarios", "nope", "--out", "{tmp}/r"],
    ["experiment", "--conditions", "clean,bogus", "--out", "{tmp}/e"],
    ["scenarios", "show", "nope"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a[:2]) + f"-{i}" for i, a in enumerate(BAD)])
def test_bad_input_fails_in_one_line_without_pipecat(argv: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    p = subprocess.run(
        [sys.executable, "-m", "voxbench.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 2, p.stderr
    assert "Pipecat" not in p.stderr + p.stdout and "| INFO" not in p.stderr
    assert p.stderr.strip().splitlines()[-1].startswith("voxbench: error:")
