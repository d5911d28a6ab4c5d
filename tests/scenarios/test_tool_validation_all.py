"""Every tool of every EVA domain answers bad parameters the way EVA's params models do
(`eva-tool-semantics.md` §0.2) and writes nothing: a missing required field, a value
outside the schema's enum, and a value of the wrong type. The tool schemas come from
EVA's agent YAML (`configs/agents/`), the field map from each domain's `PARAM_RULES`.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from voxbench.scenarios.agent_spec import ToolSpec
from voxbench.scenarios.domains import domain_param_rules
from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import DomainData, load_dataset
from voxbench.scenarios.validation import ParamRules

DOMAINS = ("airline", "itsm", "medical_hr")


@pytest.fixture(scope="module")
def data(eva_data: Path) -> dict[str, DomainData]:
    return load_dataset(eva_data, list(DOMAINS)).domains


def _executor(dd: DomainData) -> ToolExecutor:
    sid = next(iter(dd.scenarios))
    return ToolExecutor(dd.domain, dd.initial_db(sid), dd.scenarios[sid].current_date_time, dd.agent)


def _unmapped_prefix(rules: ParamRules, field: str) -> str:
    if rules.style == "itsm":
        return f"Invalid '{field}': "
    return f"Invalid or missing parameter '{field}': "


def _check_error(rules: ParamRules, tool: str, failing: list[str], r: dict[str, Any]) -> None:
    """EVA's rule: of the failing fields (in model order), the first one in the domain's
    map names the error (`Invalid {field} '...'`); else the first gives `invalid_parameter`."""
    assert r["status"] == "error", r
    mapped = [f for f in failing if rules.rule(tool, f).error_type]
    if mapped:
        field = mapped[0]
        assert r["error_type"] == rules.rule(tool, field).error_type, r
        assert r["message"].startswith(f"Invalid {field} '"), r
    else:
        assert r["error_type"] == "invalid_parameter", r
        assert r["message"].startswith(_unmapped_prefix(rules, failing[0])), r


def _specs(data: dict[str, DomainData], domain: str) -> list[ToolSpec]:
    return list(data[domain].agent.tools)


@pytest.mark.parametrize("domain", DOMAINS)
def test_missing_required_parameters(data: dict[str, DomainData], domain: str) -> None:
    dd, rules = data[domain], domain_param_rules(domain)
    assert rules is not None
    checked = 0
    for spec in _specs(data, domain):
        required = [p.name for p in spec.required_parameters]
        ex = _executor(dd)
        if not required:  # nothing to miss: the tool runs and answers (no crash)
            assert ex.execute(spec.name, {}).get("error_type") != "execution_error", spec.name
            checked += 1
            continue
        before = copy.deepcopy(ex.db)
        r = ex.execute(spec.name, {})
        _check_error(rules, spec.name, required, r)
        assert ex.db == before, f"{domain}.{spec.name} wrote on a validation error"
        checked += 1
    assert checked == len(dd.agent.tools)


def _valid_value(p: Any) -> Any:
    """A value of the right type for a parameter (enough to reach the field under test)."""
    if p.enum:
        return p.enum[0]
    return {"integer": 1, "number": 1.0, "float": 1.0, "boolean": True, "array": [], "object": {}}.get(
        p.type, "x"
    )


@pytest.mark.parametrize("domain", DOMAINS)
def test_values_outside_the_enum(data: dict[str, DomainData], domain: str) -> None:
    """A value outside an enum is refused before the tool runs, whatever the other fields."""
    dd, rules = data[domain], domain_param_rules(domain)
    assert rules is not None
    checked = 0
    for spec in _specs(data, domain):
        params = [*spec.required_parameters, *spec.optional_parameters]
        for p in params:
            rule = rules.rule(spec.name, p.name)
            enum = rule.enum if rule.enum is not None else (None if rule.no_enum else p.enum)
            if not enum:
                continue
            ex = _executor(dd)
            before = copy.deepcopy(ex.db)
            r = ex.execute(spec.name, {p.name: "not_a_listed_value"})
            # The required fields are missing too; in model order, the first mapped failure wins.
            failing = [q.name for q in params if q.name == p.name or q in spec.required_parameters]
            _check_error(rules, spec.name, failing, r)
            assert ex.db == before
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("domain", DOMAINS)
def test_strings_refuse_numbers(data: dict[str, DomainData], domain: str) -> None:
    """Pydantic lax mode: a string field does not take a number (EVA's models)."""
    dd, rules = data[domain], domain_param_rules(domain)
    assert rules is not None
    checked = 0
    for spec in _specs(data, domain):
        req = spec.required_parameters
        if not req or req[0].type != "string" or req[0].enum:
            continue
        good = {p.name: _valid_value(p) for p in req[1:]}
        ex = _executor(dd)
        before = copy.deepcopy(ex.db)
        r = ex.execute(spec.name, {req[0].name: 12345, **good})
        assert r["status"] == "error", (spec.name, r)
        assert ex.db == before
        checked += 1
    assert checked > 0


def _patterned(rules: ParamRules, spec: ToolSpec) -> list[tuple[Any, Any]]:
    """(parameter, its rule) for every parameter of `spec` with a format pattern."""
    params = [*spec.required_parameters, *spec.optional_parameters]
    return [(p, r) for p in params if (r := rules.rule(spec.name, p.name)).pattern or r.item_pattern]


@pytest.mark.parametrize("domain", DOMAINS)
def test_formats_are_checked_on_the_raw_input(data: dict[str, DomainData], domain: str) -> None:
    """Every field with a format (§0.2): a malformed value, and a well-formed one with a
    leading space (EVA matches the raw string, no trimming), are refused with the field's
    mapped error type (else `invalid_parameter`), before the tool runs; nothing is written."""
    dd, rules = data[domain], domain_param_rules(domain)
    assert rules is not None
    checked = 0
    for spec in _specs(data, domain):
        params = [*spec.required_parameters, *spec.optional_parameters]
        for p, rule in _patterned(rules, spec):
            bad_values: list[Any] = ["?not-a-code?"]
            if rule.examples:
                bad_values.append(" " + rule.examples[0])
            for bad in bad_values:
                value = [bad] if rule.item_pattern and not rule.pattern else bad
                ex = _executor(dd)
                before = copy.deepcopy(ex.db)
                r = ex.execute(spec.name, {p.name: value})
                failing = [q.name for q in params if q.name == p.name or q in spec.required_parameters]
                _check_error(rules, spec.name, failing, r)
                assert ex.db == before, f"{domain}.{spec.name} wrote on a format error"
                checked += 1
    assert checked > 0


def test_example_values_pass_their_own_format(data: dict[str, DomainData]) -> None:
    """The example a format error quotes (`must be ... (e.g. X)`) is accepted by that
    format: with only that field given, the error names another (missing) field."""
    checked = 0
    for domain in DOMAINS:
        dd, rules = data[domain], domain_param_rules(domain)
        assert rules is not None
        for spec in _specs(data, domain):
            params = [*spec.required_parameters, *spec.optional_parameters]
            for p, rule in _patterned(rules, spec):
                if not rule.examples:
                    continue
                value = [rule.examples[0]] if rule.item_pattern and not rule.pattern else rule.examples[0]
                r = _executor(dd).execute(spec.name, {p.name: value})
                failing = [q.name for q in params if q in spec.required_parameters and q.name != p.name]
                if failing:
                    _check_error(rules, spec.name, failing, r)
                else:
                    assert r.get("error_type") not in {rule.error_type, "invalid_parameter"}, (spec.name, r)
                checked += 1
    assert checked > 0
