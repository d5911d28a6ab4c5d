"""Write the report folder: index.html, conversations.html, conv/<id>.html, media/, assets/."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from voxbench.reports.html import asset_text, page
from voxbench.reports.model import Conversation, RunData, load_run
from voxbench.reports.pages_conv import conversation_body
from voxbench.reports.pages_index import conversations_body, index_body
from voxbench.reports.summary import markdown_summary, terminal_summary

ASSETS = ("report.css", "report.js", "viewer.js")


@dataclass
class Report:
    out: Path
    runs: list[RunData]
    conversations: list[Conversation]
    terminal: str
    markdown: str


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("voxbench")
    except Exception:
        return ""


def load_runs(paths: Sequence[str | Path]) -> list[RunData]:
    runs: list[RunData] = []
    seen: dict[str, int] = {}
    for p in paths:
        run = load_run(p)
        if run.name in seen:  # two runs named alike: keep them apart
            seen[run.name] += 1
            new = f"{run.name}#{seen[run.name]}"
            for c in run.conversations:
                c.run = new
                if c.system == run.name:
                    c.system = new
            run.name = new
        else:
            seen[run.name] = 1
        runs.append(run)
    return runs


def build_report(run_dirs: Sequence[str | Path], out: str | Path, copy_audio: bool = True) -> Report:
    out = Path(out)
    runs = load_runs(run_dirs)
    convs = [c for r in runs for c in r.conversations]
    meta = {"version": _version(), "generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}
    (out / "assets").mkdir(parents=True, exist_ok=True)
    for name in ASSETS:
        (out / "assets" / name).write_text(asset_text(f"assets/{name}"), encoding="utf-8")
    conv_dir = out / "conv"
    if conv_dir.exists():
        shutil.rmtree(conv_dir)
    conv_dir.mkdir()
    if (out / "media").exists():
        shutil.rmtree(out / "media")
    (out / "index.html").write_text(
        page("voxbench report", index_body(runs, convs), scripts=["report.js"], meta=meta), encoding="utf-8"
    )
    (out / "conversations.html").write_text(
        page("Conversations · voxbench", conversations_body(convs), scripts=["report.js"], meta=meta),
        encoding="utf-8",
    )
    for c in convs:
        (conv_dir / f"{c.uid}.html").write_text(
            page(
                f"{c.id} · voxbench",
                conversation_body(c, out, copy_audio=copy_audio),
                root="../",
                scripts=["viewer.js"],
                body_class="viewer",
                meta=meta,
            ),
            encoding="utf-8",
        )
    md = markdown_summary(runs, convs)
    (out / "summary.md").write_text(md, encoding="utf-8")
    return Report(out, runs, convs, terminal_summary(runs, convs), md)
