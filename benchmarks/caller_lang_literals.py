"""English words left in the goal caller's code: regex literals and word tuples, per module.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_lang_literals.py [--words]

The caller's phrase tables are data (``goal/lang/<language>.json``); what this counts is what is
still code. It reads each ``.py`` file of the caller package as an AST (nothing is imported) and
counts, per module:

- *regex literals with words*: the pattern argument of ``re.compile/search/match/sub/fullmatch/
  findall/split`` (a string, an f-string, a ``+`` of them, or a module-level name bound to one)
  whose text, once the regex structure is taken out (escapes such as ``\\b``/``\\w``, character
  classes ``[...]``, group heads ``(?:``/``(?P<name>``, quantifiers ``{2,}``, inline flags, the
  f-string's ``{...}`` slots), still holds a word of two or more letters;
- *word tuples*: tuples, sets and lists (the latter as the argument of ``frozenset``/``set``) of two
  or more string constants that are all lowercase English words or phrases. Names the code itself
  declares are not words of a language: a ``Literal[...]`` type's members anywhere in the package
  (value kinds 'date'/'time', operators 'lt'/'le', polarities 'yes'/'no') and a tuple made only of
  them are left out.

``--words`` also lists the words found per module.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src/voxbench/pipelines/caller/goal"
RE_FUNCS = frozenset({"compile", "search", "match", "sub", "fullmatch", "findall", "split"})
_STRUCTURE = re.compile(
    r"\\[A-Za-z]"  # escapes: \b \w \d \s \S ...
    r"|\\."  # escaped punctuation
    r"|\[(?:\\.|[^\]\\])*\]"  # character classes
    r"|\(\?P<\w+>|\(\?P=\w+\)|\(\?<?[=!:]|\(\?[aiLmsux-]+[:)]"  # group heads, inline flags
    r"|\{\d*,?\d*\}"  # quantifiers
)
_WORD = re.compile(r"[A-Za-z]{2,}")
_LOWER_WORDS = re.compile(r"[a-z][a-z' -]*")
SLOT = "\x00"


def _text(node: ast.expr, names: dict[str, ast.expr], depth: int = 0) -> str | None:
    """The literal text of a pattern expression, f-string slots as :data:`SLOT`; None if not literal."""
    if depth > 5:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else SLOT for v in node.values)  # type: ignore[misc]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # a part not literal is a slot
        left, right = _text(node.left, names, depth + 1), _text(node.right, names, depth + 1)
        return None if left is None and right is None else (left or SLOT) + (right or SLOT)
    if isinstance(node, ast.Name) and node.id in names:
        return _text(names[node.id], names, depth + 1)
    return None


def regex_words(pattern: str) -> list[str]:
    """The words of two or more letters a pattern still holds once its structure is taken out."""
    bare = _STRUCTURE.sub(" ", pattern.replace(SLOT, " "))
    return _WORD.findall(bare)


def _is_re_call(node: ast.Call) -> bool:
    f = node.func
    return (
        isinstance(f, ast.Attribute)
        and f.attr in RE_FUNCS
        and isinstance(f.value, ast.Name)
        and f.value.id == "re"
    )


def _word_strings(elts: list[ast.expr]) -> list[str] | None:
    vals = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if len(vals) < 2 or len(vals) != len(elts):
        return None
    ok = all(_LOWER_WORDS.fullmatch(v.strip()) and _WORD.search(v) for v in vals)
    return vals if ok else None


def declared_names(paths: list[Path]) -> frozenset[str]:
    """The string members of every ``Literal[...]`` type in ``paths``: the code's own vocabulary."""
    out: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id == "Literal"
            ):
                elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                out |= {e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return frozenset(out)


def scan(path: Path, declared: frozenset[str] = frozenset()) -> tuple[list[list[str]], list[list[str]]]:
    """(regex literals with words, word tuples) of one module, each as its list of words."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: dict[str, ast.expr] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            names[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            names[stmt.target.id] = stmt.value
    regexes: list[list[str]] = []
    tuples: list[list[str]] = []
    set_args: set[int] = set()
    typed: set[int] = set()  # the Tuple of a subscript: Literal["a", "b"], tuple[str, ...]
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            typed.add(id(node.slice))
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set") and node.args:
                set_args.add(id(node.args[0]))
            if _is_re_call(node):
                pat = (
                    node.args[0]
                    if node.args
                    else next((k.value for k in node.keywords if k.arg == "pattern"), None)
                )
                text = _text(pat, names) if pat is not None else None
                found = regex_words(text) if text is not None else []
                if found:
                    regexes.append(found)
    for node in ast.walk(tree):
        if id(node) in typed:
            continue
        if isinstance(node, (ast.Tuple, ast.Set)) or (isinstance(node, ast.List) and id(node) in set_args):
            vals = _word_strings(node.elts)
            if vals and not set(vals) <= declared:
                tuples.append(vals)
    return regexes, tuples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", action="store_true", help="list the words found per module")
    ap.add_argument(
        "--package", type=Path, default=PACKAGE, help="the caller package's folder (another checkout's)"
    )
    args = ap.parse_args()
    total_r = total_t = 0
    print(f"{'module':<20} {'regex lits':>10} {'word tuples':>11}")
    paths = sorted(args.package.glob("*.py"))
    declared = declared_names(paths)
    for path in paths:
        regexes, tuples = scan(path, declared)
        total_r, total_t = total_r + len(regexes), total_t + len(tuples)
        if regexes or tuples:
            print(f"{path.stem:<20} {len(regexes):>10} {len(tuples):>11}")
            if args.words:
                for w in regexes:
                    print(f"    re: {' '.join(w)}")
                for t in tuples:
                    print(f"    tuple: {' | '.join(t)}")
    print(f"{'total':<20} {total_r:>10} {total_t:>11}")


if __name__ == "__main__":
    main()
