"""Small HTML helpers and the page template (stdlib `string.Template`, escaped values)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from importlib import resources
from string import Template

from voxbench.reports.stats import Estimate


def asset_text(name: str) -> str:
    return resources.files("voxbench.reports").joinpath(name).read_text(encoding="utf-8")


def page(
    title: str,
    body: str,
    root: str = "",
    scripts: Sequence[str] = (),
    body_class: str = "",
    meta: dict[str, str] | None = None,
) -> str:
    meta = meta or {}
    tags = "\n".join(f'<script src="{root}assets/{escape(s)}"></script>' for s in scripts)
    return Template(asset_text("templates/page.html")).substitute(
        title=escape(title),
        root=root,
        body=body,
        scripts=tags,
        body_class=body_class,
        version=escape(meta.get("version", "")),
        generated=escape(meta.get("generated", "")),
    )


def e(v: object) -> str:
    return escape(str(v))


def pct(v: float | None, digits: int = 0) -> str:
    return "–" if v is None else f"{100 * v:.{digits}f}%"


def num(v: float | None, digits: int = 2) -> str:
    return "–" if v is None else f"{v:.{digits}f}"


def est_cell(est: Estimate, as_pct: bool = True, best: bool = False) -> str:
    """A value with its 95% CI underneath; empty dash when there is no value."""
    if est.value is None:
        return '<td class="na" title="not computed">–</td>'
    val = pct(est.value) if as_pct else num(est.value)
    ci = ""
    if est.ci is not None:
        lo, hi = est.ci
        ci = f'<span class="ci">{pct(lo) if as_pct else num(lo)}–{pct(hi) if as_pct else num(hi)}</span>'
    tip = f"n={est.n} scenarios" + (f", 95% CI {est.ci[0]:.3f}–{est.ci[1]:.3f}" if est.ci else "")
    cls = ' class="best"' if best else ""
    return f'<td{cls} title="{e(tip)}"><span class="v">{val}</span>{ci}</td>'


def table(head: Iterable[str], rows: Iterable[str], cls: str = "") -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def chip(text: str, kind: str, title: str = "") -> str:
    t = f' title="{e(title)}"' if title else ""
    return f'<span class="chip {kind}"{t}>{e(text)}</span>'


def verdict(v: float | None, label: str) -> str:
    if v is None:
        return chip(f"{label} n/a", "na", "could not be computed (a component is missing or errored)")
    return chip(f"{label} pass", "pass") if v >= 1 else chip(f"{label} fail", "fail")
