"""Why a reference-trace response may differ from EVA's current tool code, with evidence.

EVA's `expected_trace` responses were recorded with earlier revisions of its tools and
databases (`eva-tool-semantics.md`, "A note on the reference traces"). The tool code is
the reference for responses and the expected database for hashes, so replay lists each
remaining trace difference with the evidence that the trace, not the tool, is stale.
The rules are generic (by shape of the difference), never per scenario.
"""

from __future__ import annotations

import json
import re
from typing import Any

MISSING = object()
Difference = tuple[str, Any, Any]  # (JSON path, expected, actual); MISSING marks an absent key

_NAME_TOKENS = (
    ("<FIRST_NAME>", "<FIRST_NAME_ROMANIZED>"),
    ("<LAST_NAME>", "<LAST_NAME_ROMANIZED>"),
    ("<COMPANION_FIRST_NAME>", "<COMPANION_FIRST_NAME_ROMANIZED>"),
)


def same_scalar(a: Any, b: Any) -> bool:
    """Equal as the agent reads them in JSON: `True` is not `1`, and `75` is not `75.0`."""
    return (
        a == b and isinstance(a, bool) == isinstance(b, bool) and isinstance(a, float) == isinstance(b, float)
    )


def differences(expected: Any, actual: Any, path: str = "$") -> list[Difference]:
    """Every place two JSON values differ (lists by position; a length change is one entry)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out: list[Difference] = []
        for k in sorted(set(expected) | set(actual), key=str):
            out += differences(expected.get(k, MISSING), actual.get(k, MISSING), f"{path}.{k}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out += differences(e, a, f"{path}[{i}]")
        return out
    if expected is MISSING or actual is MISSING:
        return [(path, expected, actual)]
    if not same_scalar(expected, actual):
        return [(path, expected, actual)]
    return []


def _values(obj: Any) -> set[str]:
    """Every value of a JSON document (scalars and lists), as canonical JSON."""
    if isinstance(obj, dict):
        return set().union(*(_values(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        inner = set().union(*(_values(v) for v in obj)) if obj else set()
        return inner | {json.dumps(obj, sort_keys=True)}
    return {json.dumps(obj)}


CASCADE_TRANSFER = {"status": "transfer_initiated"}


def explain_response(tool: str, expected: Any) -> str | None:
    """Evidence that a whole recorded response is not a tool function's output, or None.

    EVA's cascade agent answers `transfer_to_agent` itself, before the tool function
    runs, and logs `{"status": "transfer_initiated"}` (the airline traces were recorded
    that way); the function, which EVA's realtime servers run, is what our tool matches.
    """
    if tool == "transfer_to_agent" and expected == CASCADE_TRANSFER:
        return (
            "the trace records EVA's cascade agent answering the call itself "
            '({"status": "transfer_initiated"}, before any validation); the tool function, '
            "which EVA's realtime servers run and ours matches, returns the transfer record"
        )
    return None


def explain(tool: str, diff: Difference, values: dict[str, str], db: dict[str, Any]) -> str | None:
    """Evidence that one difference comes from a stale trace, or None if it is ours."""
    path, exp, act = diff
    for token, roman in _NAME_TOKENS:
        if isinstance(exp, str) and exp == values.get(token) and act == values.get(roman):
            return (
                f"{path}: trace shows {token} ({exp!r}) where the database stores {roman} ({act!r}); "
                "EVA's tools return names as stored"
            )
    if path.endswith(".name_aliases") and exp is MISSING:
        return (
            f"{path}: the database entry carries injected name_aliases and EVA's tool returns the whole "
            "entry; the trace predates the alias injection"
        )
    if tool == "check_ergonomic_assessment" and path == "$.assessment_date" and exp is None:
        return (
            f"{path}: trace shows null, EVA's current code returns ergonomic_assessment.completed_date "
            f"({act!r}); the trace predates it (an older revision read a key that did not exist)"
        )
    if (
        not isinstance(exp, dict)
        and exp is not MISSING
        and act is not MISSING
        and json.dumps(exp, sort_keys=True) not in _values(db)
        and json.dumps(act, sort_keys=True) in _values(db)
    ):
        return f"{path}: trace value {exp!r} appears nowhere in the scenario database; ours ({act!r}) is the database's"
    return None


_ID_KEY_SUFFIXES = ("_code", "_id", "_tag", "_number")
RecordId = tuple[tuple[str, str], ...]
StaleRecords = dict[RecordId, str]  # record identity -> where the trace contradicts the db


def _id_of(record: Any) -> RecordId | None:
    """A record's identity: all its string fields named like ids (a room's code *and* its
    floor's, so two rooms on one floor stay apart)."""
    if not isinstance(record, dict):
        return None
    ids = tuple((k, v) for k, v in record.items() if isinstance(v, str) and k.endswith(_ID_KEY_SUFFIXES))
    return ids or None


def stale_records(where: str, expected: Any, explained_paths: list[str], path: str = "$") -> StaleRecords:
    """Records of a trace response that hold an explained (database-contradicting) value.

    A record the trace shows in a state the database never had tells that the trace
    predates an edit of that record; other calls' differences about it follow from it.
    """
    out: StaleRecords = {}
    if isinstance(expected, dict):
        rid = _id_of(expected)
        if rid and any(p.startswith(path + ".") for p in explained_paths):
            out[rid] = where
        for k, v in expected.items():
            out.update(stale_records(where, v, explained_paths, f"{path}.{k}"))
    elif isinstance(expected, list):
        for i, v in enumerate(expected):
            out.update(stale_records(where, v, explained_paths, f"{path}[{i}]"))
    return out


def explain_by_stale_record(diff: Difference, stale: StaleRecords) -> str | None:
    """A list that differs only by records the same trace shows stale elsewhere."""
    path, exp, act = diff
    if not (isinstance(exp, list) and isinstance(act, list)):
        return None
    extra = [x for x in act if x not in exp] + [x for x in exp if x not in act]
    ids = [_id_of(x) for x in extra]
    if not extra or any(i is None or i not in stale for i in ids):
        return None
    named = "; ".join(", ".join(f"{k} {v!r}" for k, v in i) + f" ({stale[i]})" for i in ids if i is not None)
    return (
        f"{path}: differs only by records this trace shows elsewhere in a state the scenario database "
        f"never had: {named}; the trace predates an edit of the database"
    )


def explain_count(diff: Difference, lists: list[tuple[str, int, int]]) -> str | None:
    """A text that differs only by an explained list's length ("0 room(s)" / "1 room(s)")."""
    path, exp, act = diff
    if not (isinstance(exp, str) and isinstance(act, str)):
        return None
    for list_path, n_exp, n_act in lists:
        if re.sub(rf"\b{n_exp}\b", str(n_act), exp, count=1) == act:
            return (
                f"{path}: the count of {list_path} ({n_exp} -> {n_act}), whose difference is explained above"
            )
    return None
