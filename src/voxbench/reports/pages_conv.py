"""The conversation viewer: waveform timeline with events, audio with a moving cursor,
intended vs transcribed text, tool calls, every metric's verdict, and the DB diff."""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path
from typing import Any

from voxbench.eval.types import REGISTRY
from voxbench.reports.explain import explain
from voxbench.reports.html import chip, e, num, verdict
from voxbench.reports.judged_by import judge_note
from voxbench.reports.model import Conversation
from voxbench.reports.pages_analysis import cause_block
from voxbench.reports.tables import metric_order
from voxbench.reports.timeline import (
    Timeline,
    audio_duration,
    build_timeline,
    channel_audio,
    load_events,
    peaks,
)
from voxbench.scenarios import db_diff
from voxbench.scenarios.hashing import format_diff

PX_PER_S = 40
LANE_H = 64
CH_COLOR = {"user": "#2563eb", "agent": "#db2777"}
CH_LABEL = {"user": "Caller (simulator)", "agent": "Agent under test"}


def timeline_svg(tl: Timeline, wave_peaks: dict[str, list[float]], duration: float) -> str:
    w = max(1200, round(duration * PX_PER_S)) + 20
    top, gap = 22, 10
    lanes = {"user": top, "agent": top + LANE_H + gap}
    ev_y = top + 2 * (LANE_H + gap)
    h = ev_y + 34

    def x(t: float) -> float:
        return 10 + t * PX_PER_S if duration * PX_PER_S >= 1180 else 10 + t / max(duration, 1e-9) * (w - 20)

    p: list[str] = [
        f'<svg id="timeline" width="{w}" height="{h}" data-duration="{duration:.3f}" data-x0="10" '
        f'data-pxps="{(x(1) - x(0)):.4f}" xmlns="http://www.w3.org/2000/svg">'
    ]
    step = 1 if duration <= 20 else 5 if duration <= 120 else 10 if duration <= 400 else 30
    t = 0
    while t <= duration:
        p.append(f'<line class="tgrid" x1="{x(t):.1f}" y1="14" x2="{x(t):.1f}" y2="{ev_y + 26}"/>')
        p.append(f'<text class="ttick" x="{x(t) + 2:.1f}" y="11">{t // 60}:{t % 60:02d}</text>')
        t += step
    for ch, y0 in lanes.items():
        mid = y0 + LANE_H / 2
        p.append(f'<rect class="lane" x="0" y="{y0}" width="{w}" height="{LANE_H}"/>')
        for s in tl.segments.get(ch, []):
            tip = f"{CH_LABEL[ch]} speech {s.start:.2f}–{s.end:.2f}s"
            p.append(
                f'<rect class="seg seg-{ch}" x="{x(s.start):.1f}" y="{y0 + 2}" width="{max(2.0, x(s.end) - x(s.start)):.1f}" '
                f'height="{LANE_H - 10}" data-t="{s.start:.3f}"><title>{e(tip)}</title></rect>'
            )
        for a, b in tl.vad.get(ch, []):
            p.append(
                f'<rect class="vad" x="{x(a):.1f}" y="{y0 + LANE_H - 6}" width="{max(2.0, x(b) - x(a)):.1f}" height="4">'
                f"<title>VAD on {ch}: {a:.2f}–{b:.2f}s</title></rect>"
            )
        pk = wave_peaks.get(ch) or []
        if pk:
            n = len(pk)
            amp = (LANE_H - 12) / 2
            pts = [f"{x(i / n * duration):.1f},{mid - 3 - v * amp:.1f}" for i, v in enumerate(pk)]
            pts += [
                f"{x(i / n * duration):.1f},{mid - 3 + v * amp:.1f}" for i, v in reversed(list(enumerate(pk)))
            ]
            p.append(f'<polygon class="wave" fill="{CH_COLOR[ch]}" points="{" ".join(pts)}"/>')
        else:
            p.append(f'<text class="ttick" x="14" y="{mid}">no audio for this channel</text>')
        p.append(f'<text class="lanelbl" x="6" y="{y0 + 13}">{CH_LABEL[ch]}</text>')
    p.append(f'<text class="lanelbl" x="6" y="{ev_y + 10}">Events</text>')
    for t_, ch in tl.barge_ins:
        p.append(
            f'<path class="barge" d="M{x(t_):.1f},{ev_y + 12} l-6,12 h12 z" data-t="{t_:.3f}"><title>{e(CH_LABEL[ch])} barged in at {t_:.2f}s</title></path>'
        )
    for t_, ch in tl.yields:
        p.append(
            f'<path class="yield" d="M{x(t_):.1f},{ev_y + 24} l-6,-12 h12 z" data-t="{t_:.3f}"><title>{e(CH_LABEL[ch])} yielded at {t_:.2f}s</title></path>'
        )
    for te in tl.tools:
        tip = f"tool {te.name} at {te.t:.2f}s" + (f" → {te.status}" if te.status else "")
        cls = "tool" if te.status in (None, "success", "ok") else "tool err"
        p.append(
            f'<g class="{cls}" data-t="{te.t:.3f}"><title>{e(tip)}</title>'
            f'<rect x="{x(te.t) - 5:.1f}" y="{ev_y + 12}" width="10" height="10" transform="rotate(45 {x(te.t):.1f} {ev_y + 17})"/>'
            f'<text x="{x(te.t) + 8:.1f}" y="{ev_y + 21}">{e(te.name)}</text></g>'
        )
    p.append(f'<line id="cursor" x1="10" y1="14" x2="10" y2="{h - 4}"/></svg>')
    return "".join(p)


def _word_diff(intended: str, heard: str) -> str:
    """The heard text with words missing from / added to the intended text highlighted."""
    a, b = intended.split(), heard.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
        a=[w.lower().strip(".,!?") for w in a], b=[w.lower().strip(".,!?") for w in b]
    ).get_opcodes():
        if op == "equal":
            out.append(e(" ".join(b[j1:j2])))
        else:
            if i2 > i1:
                out.append(f"<del title='said but not heard'>{e(' '.join(a[i1:i2]))}</del>")
            if j2 > j1:
                out.append(f"<ins title='heard but not said'>{e(' '.join(b[j1:j2]))}</ins>")
    return " ".join(out)


def _fmt_json(v: Any) -> str:
    return e(json.dumps(v, ensure_ascii=False, indent=1) if not isinstance(v, str) else v)


def transcript_html(tl: Timeline) -> str:
    items: list[tuple[float, str]] = []
    for ch in ("user", "agent"):
        for s in tl.segments.get(ch, []):
            intended, heard = " ".join(s.intended), " ".join(s.heard)
            other = "agent" if ch == "user" else "caller"
            rows = []
            if intended:
                rows.append(f"<div class='said'><span class='k'>said</span><span>{e(intended)}</span></div>")
            if heard:
                body = _word_diff(intended, heard) if intended else e(heard)
                rows.append(
                    f"<div class='heard'><span class='k'>{other} heard</span><span>{body}</span></div>"
                )
            if not rows:
                rows.append("<div class='muted'>(speech with no text)</div>")
            flag = chip("interrupted", "warn") if s.interrupted else ""
            items.append(
                (
                    s.start,
                    f"<div class='turn {ch}' data-t='{s.start:.3f}' data-end='{s.end:.3f}'><button class='ts' data-seek='{s.start:.3f}'>"
                    f"{s.start:.1f}s</button><span class='who'>{'Caller' if ch == 'user' else 'Agent'}</span>{flag}{''.join(rows)}</div>",
                )
            )
    for te in tl.tools:
        res = ""
        if te.t_result is not None:
            st = chip(te.status or "?", "pass" if te.status in ("success", "ok") else "fail")
            res = f"<div class='res'>{st}<pre>{_fmt_json(te.result)}</pre></div>"
        items.append(
            (
                te.t + 1e-6,
                f"<div class='turn tool' data-t='{te.t:.3f}'><button class='ts' data-seek='{te.t:.3f}'>{te.t:.1f}s</button>"
                f"<span class='who'>Tool call</span><code class='fn'>{e(te.name)}</code><pre>{_fmt_json(te.arguments)}</pre>{res}</div>",
            )
        )
    items.sort(key=lambda x: x[0])
    return "".join(h for _, h in items) or "<p class='muted'>No speech or text events in this record.</p>"


def metrics_html(c: Conversation) -> str:
    if not c.scored:
        return "<p class='muted'>Not scored yet: run <code>voxbench eval</code> on this run, then rebuild the report.</p>"
    rows = []
    for n in metric_order(c.metrics):
        m = c.metrics[n]
        if m.error:
            badge = chip("error", "fail", m.error)
        elif m.unscored:
            badge = chip("unscored", "na", "could not be computed here (no judge or no audio)")
        elif m.skipped or m.value is None:
            badge = chip("n/a", "na", "not applicable to this conversation")
        elif m.passed is None:
            badge = chip("info", "na", "diagnostic without a pass threshold")
        else:
            badge = chip("pass", "pass") if m.passed else chip("fail", "fail")
        val = "–" if m.value is None else num(m.value, 2)
        raw = (
            f"<div class='sub' title='raw score before normalisation'>raw {num(m.score, 2)}</div>"
            if m.score is not None and m.normalized is not None and abs(m.score - m.normalized) > 1e-9
            else ""
        )
        thr = f"<div class='sub'>pass ≥ {m.threshold:.2f}</div>" if m.threshold is not None else ""
        spec = REGISTRY.get(n)
        desc = f" title='{e(spec.description)}'" if spec is not None and spec.description else ""
        details = (
            f"<details><summary>details</summary><pre>{_fmt_json(m.details)}</pre></details>"
            if m.details
            else ""
        )
        rows.append(
            f"<tr class='{'failrow' if m.passed is False or m.error else ''}'><td{desc}><b>{e(n).replace('_', '_<wbr>')}</b><div class='sub'>{e(m.version)}"
            f"{' · ' + e(m.judge_model) if m.judge_model else ''}</div>{judge_note(n, [m])}</td><td>{badge}</td><td class='num'>{val}{raw}{thr}</td>"
            f"<td class='expl'>{e(explain(m))}{details}</td></tr>"
        )
    return (
        "<table class='mtable'><thead><tr><th>Metric</th><th></th><th>Score</th><th>Why</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def dbdiff_html(c: Conversation) -> str:
    try:
        scen = json.loads((c.path / "scenario.json").read_text(encoding="utf-8"))
        final = json.loads((c.path / "final_db.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    expected = (scen.get("ground_truth") or {}).get("expected_scenario_db")
    if not isinstance(expected, dict) or not isinstance(final, dict):
        return ""
    text = format_diff(db_diff(expected, final), limit=60)
    if not text:
        return "<p class='muted'>The final database matches the expected one.</p>"
    lines = "".join(
        f"<div class='d{'ins' if ln[0] == '+' else 'del' if ln[0] == '-' else 'mod'}'>{e(ln)}</div>"
        for ln in text.splitlines()
    )
    return f"<div class='dbdiff'>{lines}</div>"


def conversation_body(c: Conversation, out_dir: Path, copy_audio: bool = True) -> str:
    r = c.record
    events = load_events(c.path)
    dur = max(audio_duration(c.path, r.audio), r.duration_s or 0.0)
    tl = build_timeline(events, dur or None)
    dur = max(dur, tl.duration, 1.0)
    audio = channel_audio(c.path, r.audio) if r.audio else {}
    bins = min(4000, max(300, round(dur * PX_PER_S / 2)))
    wave_peaks = {ch: peaks(a, sr, dur, bins) for ch, (a, sr) in audio.items()}
    # audio: the stereo mix if there is one, else the agent channel
    player = "<p class='muted'>No audio was recorded with this conversation.</p>"
    if r.audio:
        for which in ("mix", "agent", "user"):
            rel = getattr(r.audio, which)
            if rel and (c.path / rel).is_file():
                dest = out_dir / "media" / c.uid / Path(rel).name
                dest.parent.mkdir(parents=True, exist_ok=True)
                if copy_audio:
                    shutil.copyfile(c.path / rel, dest)
                elif not dest.exists():
                    dest.symlink_to((c.path / rel).resolve())
                player = f"<audio id='player' controls preload='auto' src='../media/{e(c.uid)}/{e(dest.name)}'></audio>"
                break
    fails = c.failing
    task_failed = (m := c.metrics.get("task_completion")) is not None and m.passed is False
    diff = dbdiff_html(c) if task_failed or (not c.metrics and r.final_db_hash) else ""
    goal = ""
    try:
        scen = json.loads((c.path / "scenario.json").read_text(encoding="utf-8"))
        g = scen.get("user_goal") or {}
        text = g.get("high_level_user_goal") or g.get("description") or ""
        if text:
            goal = f"<p class='goal'><b>Caller's goal:</b> {e(text)}</p>"
    except (OSError, ValueError):
        pass
    meta = [
        ("Agent", c.system),
        ("Domain", r.domain),
        ("Scenario", r.scenario_id),
        ("Trial", r.trial),
        ("Condition", r.condition),
        ("Status", c.status),
        ("Ended by", r.end_reason or "–"),
        ("Length", f"{dur:.1f} s"),
        ("Tool calls", len(tl.tools)),
        ("Run", c.run),
    ]
    meta_html = "".join(f"<div><span class='k'>{k}</span><span>{e(v)}</span></div>" for k, v in meta)
    legend = (
        "<div class='legend'><span><i class='sw seg-user'></i>caller speech</span><span><i class='sw seg-agent'></i>agent speech</span>"
        "<span><i class='sw vad'></i>VAD</span><span><i class='sw barge'></i>barge-in</span><span><i class='sw yield'></i>yield</span>"
        "<span><i class='sw tool'></i>tool call</span><span class='muted'>Click the timeline or a time stamp to jump there.</span></div>"
    )
    failing = "<p>Failing: " + " ".join(chip(f, "fail") for f in fails) + "</p>" if fails else ""
    err = f"<p class='error'>Error ({e(r.error_source or 'unknown')}): {e(r.error)}</p>" if r.error else ""
    return (
        f"<p class='crumbs'><a href='../conversations.html'>← Conversations</a></p>"
        f"<h1>{e(r.conversation_id)} {verdict(c.aggregates.get('EVA-A_pass'), 'EVA-A')} {verdict(c.aggregates.get('EVA-X_pass'), 'EVA-X')}</h1>"
        f"<div class='meta'>{meta_html}</div>{goal}{failing}{err}{cause_block(c)}"
        f"<section class='player'>{player}<span id='clock' class='clock'>0.0 s</span>{legend}"
        f"<div class='tlwrap' id='tlwrap'>{timeline_svg(tl, wave_peaks, dur)}</div></section>"
        "<div class='cols'><section><h2>What was said and heard</h2>"
        "<p class='muted'>Each side's intended text, and what the other side transcribed: "
        "<del>struck</del> words were said but not heard, <ins>highlighted</ins> ones heard but not said.</p>"
        f"<div class='transcript'>{transcript_html(tl)}</div></section>"
        f"<section><h2>Metrics</h2>{metrics_html(c)}"
        + (f"<h2>Database: expected vs final</h2>{diff}" if diff else "")
        + "</section></div>"
    )
