"""The project's style held for all of ``src/voxbench``, not only the live path
(``test_code_shape.py``): no module over 400 lines, no function over 80.

A module or function that grows past a limit is split by what its parts do, not trimmed to
fit: the limits are counted on the formatted source (``make lint`` checks ``ruff format``).
``PORTS`` are files carried over from another project line by line, kept whole so they can be
compared with their source. Read with ``ast``, nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "voxbench"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
PORTS = {"eval/wer_norm/numbers.py": "EVA's number normaliser"}


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def test_no_module_over_the_limit() -> None:
    sizes = {_rel(p): len(p.read_text().splitlines()) for p in _modules()}
    over = {rel: n for rel, n in sizes.items() if n > MAX_MODULE_LINES and rel not in PORTS}
    assert not over, f"modules over {MAX_MODULE_LINES} lines: {over}"


def test_no_function_over_the_limit() -> None:
    over = []
    for path in _modules():
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (fn.end_lineno or fn.lineno) - fn.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    over.append(f"{_rel(path)}:{fn.lineno} {fn.name}: {size} lines")
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(over)


def test_ports_exist() -> None:
    """An exemption for a file that is gone (or renamed) is stale: delete it."""
    missing = [rel for rel in PORTS if not (SRC / rel).is_file()]
    assert not missing, missing
