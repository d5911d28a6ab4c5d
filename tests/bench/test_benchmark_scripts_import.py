"""Every script of ``benchmarks/`` imports: a name moved or renamed in the package (or in a
neighbouring script) breaks a bench nobody runs in CI, and shows only when someone next needs it."""

from __future__ import annotations

import pytest

from .bench_scripts import BENCHMARKS, load

SCRIPTS = sorted(p.stem for p in BENCHMARKS.glob("*.py"))


@pytest.mark.parametrize("name", SCRIPTS)
def test_the_script_imports(name: str) -> None:
    try:
        load(name)
    except ModuleNotFoundError as e:  # an optional extra this install lacks is no breakage
        local = {"voxbench", *SCRIPTS}
        if (e.name or "").split(".")[0] in local:
            raise
        pytest.skip(f"{name}: needs {e.name}, not installed")
