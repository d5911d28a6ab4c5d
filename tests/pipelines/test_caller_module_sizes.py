"""The caller package stays in small files with one job (issue 29: no module over 400 lines).

A module that grows past the limit is split by what its parts do, not trimmed to fit: the
limit is counted on the formatted source (`make lint` checks `ruff format`)."""

from __future__ import annotations

from pathlib import Path

import voxbench.pipelines.caller as caller_pkg

LIMIT = 400


def test_no_caller_module_over_the_limit() -> None:
    root = Path(caller_pkg.__file__).parent
    sizes = {p.relative_to(root).as_posix(): len(p.read_text().splitlines()) for p in root.rglob("*.py")}
    assert sizes, "the caller package has modules"
    over = {name: n for name, n in sizes.items() if n > LIMIT}
    assert not over, f"caller modules over {LIMIT} lines: {over}"
