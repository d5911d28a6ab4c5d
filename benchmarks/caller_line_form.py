"""Are the goal caller's lines in the form a person says them? Three classes, per half.

    PYTHONPATH=src .venv/bin/python benchmarks/caller_line_form.py --check after.json \
        [--weak weak.json] [--data DIR] [--rows] [--save now.json] [--before then.json] [--test]

Lines read: every scenario's opening (:meth:`GoalCaller.open`), the caller check's replies
(``--check``: the JSON of ``voxbench caller check --out``) and, with ``--weak``, the weak-turn
replies (``caller check --weak-turns --out``). Each line is cut into sentences and each sentence is
counted once per class it shows (the dev half's counts; the test half's only with ``--test``):

* **cap**: a value the scenario writes in small letters, or in sentence case ('Traffic made you
  miss the flight'), said after other words of its sentence with a capital first letter ('Like I
  mentioned, Employee medical condition.', 'The reason is Traffic made ...'). Names, codes, dates
  and values the scenario itself writes with a capital on a word after its first ('East Campus',
  'Adobe Creative Cloud') are proper and left out. **capword** is the broader count: any word
  after a sentence's first with a capital that no word of the scenario's own text has mid-sentence,
  no month or weekday, and no word of a value the caller says ('As I mentioned, Before you go').
* **digit**: a small count (0 to 10) written as a digit before the word it counts ('I need 1
  bag.', '6 attendees'); not a time ('10 AM'), an amount ('$5'), a date ('July 5'), an id after its
  noun ('floor 2', 'room 5', 'flight 7') or a compound ('30-day').
* **goal**: a run of four or more words of the goal's own description (``high_level_user_goal``,
  the ``must_have_criteria`` and the scenario's listed ``intents``) that is an instruction to the
  simulator rather than what the caller wants: it holds a word of ``INSTRUCTION`` ('with proper
  calendar event creation', 'through the standard process', 'get the agent to skip ...'). The
  broad count of any four-word run of the description said outside a fact value is ``goal4``.

Also the issue's two checks, over the check's replies: **key** (a fact key said with its
underscores or as spelled letters: :func:`voxbench.pipelines.caller.goal.speech.said_problems`'s
key check) and **unsaid** (a disclosed value not in the sentence: the check's own figure, which the
replies' ``disclosed`` facts carry). ``--rows`` prints the sentences of DEV scenarios only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.lang import alt
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.speech import said_problems, value_kind
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of
from voxbench.spoken.data import leaves
from voxbench.spoken.words import MONTH_NAMES

CLASSES = ("cap", "capword", "digit", "goal", "goal4", "key")
_CALENDAR = {m.capitalize() for m in MONTH_NAMES} | {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
}  # fmt: skip
INSTRUCTION = re.compile(
    r"\b(?:proper|properly|the agent|standard process|full verification|the required|policy|claiming"
    r"|claimed)\b",
    re.I,
)
"""The class of goal wording that instructs the simulator (read on the DEV goals' texts): 'with
proper ...', 'properly ...', 'through the standard / full ... process', 'get (make sure) the agent
...', 'the required ...', 'by claiming ...'. A want of the caller's own ('make sure I am staying on
the same flight') is not one."""
_COUNT = re.compile(r"(?<![\w$.,:-])(\d{1,2})(?![\w.:,-]\d)(?!-)\s+([A-Za-z][a-z]+)")
_NOT_COUNTED = re.compile(rf"^(?:{alt('line_form', 'not_counted')})$", re.I)
"""Words after a number that it does not count ('10 am', '5 percent'): bench/lang/en.json."""
_ID_BEFORE = re.compile(rf"\b(?:{alt('line_form', 'id_before')})\s*$", re.I)
"""A number after these names a thing ('floor 3', 'gate 12'), it counts nothing."""
_MONTH = re.compile(rf"\b(?:{'|'.join(sorted({m[:3] for m in MONTH_NAMES} | {'sept'}))})[a-z]*\.?\s*$", re.I)
_WORD = re.compile(r"[a-z0-9']+")


def _leaves(obj: Any) -> list[str]:
    return [str(x) for x in leaves(obj) if not isinstance(x, bool)]


class Scene:
    """One scenario as the bench reads it: the caller's values and the goal's description."""

    def __init__(self, domain: str, sc: Scenario) -> None:
        self.domain, self.id, self.half = domain, sc.id, half(domain, sc.id)
        self.caller = GoalCaller(sc)
        raw = " ".join(_leaves(sc.user_goal.information_required))
        goal = sc.user_goal
        desc = [goal.high_level_user_goal, *goal.decision_tree.must_have_criteria]
        desc += [
            str(i.get("intent", ""))
            for i in (sc.scenario_context.get("intents") or [])
            if isinstance(i, dict)
        ]
        # a word the scenario writes with a capital after a first word: a proper word of its own
        proper_text = " ".join([raw, *_leaves(sc.model_dump(mode="json"))])
        self.proper = {w for w in re.findall(r"(?<=[A-Za-z0-9] )[A-Z][a-z][\w'-]*", proper_text)} | _CALENDAR
        self.proper |= {
            w for v in _leaves(sc.user_goal.information_required) for w in v.split()[1:] if w[:1].isupper()
        }
        self.common: list[str] = []  # values said with a capital only at a sentence start
        values: list[str] = []
        for f in self.caller.book:
            said = self.caller.say.value(f)
            values.append(said.lower())
            kind = value_kind(f.value, f.words)
            if kind in ("name", "code", "date", "time", "list") or not said[:1].isalpha():
                continue
            first = said.split()[0]
            if first[:1].isupper() and (first in self.proper or len(first) == 1 or first.isupper()):
                continue
            if said[:1].islower() or _sentence_case(said, self.proper):
                self.common.append(said[:1].upper() + said[1:])
        self.values = " | ".join(values)
        self.desc4 = {g for d in desc for g in _grams(d, 4)}
        self.instr4 = {g for d in desc for g in _grams(d, 4) if INSTRUCTION.search(" ".join(g))}
        self.keys = {f.key: f.value for f in self.caller.book}
        self.names = {w for f in self.caller.book for w in f.spoken().split() if w[:1].isupper()}

    def key_said(self, sentence: str) -> str:
        """A fact key said as written ('return_date') or letters spelled that are no value's code
        and no acronym of the scenario (a key read as letters: 'B O S E S T')."""
        raw = [k for k in self.keys for part in k.split(".") if "_" in part and part in sentence]
        spelled = [p for p in said_problems(sentence, self.keys, {}, self.caller.say.acronyms)
                   if p.startswith("letters spelled")]  # fmt: skip
        return "; ".join([*raw, *spelled])


def _sentence_case(said: str, proper: set[str]) -> bool:
    """Several words, the later ones in small letters or proper: a phrase written as a sentence."""
    ws = said.split()
    return len(ws) >= 2 and all(not w[:1].isupper() or w in proper or w.isupper() for w in ws[1:])


def _grams(text: str, n: int) -> list[tuple[str, ...]]:
    ws = _WORD.findall(text.lower().replace("’", "'"))
    return [tuple(ws[i : i + n]) for i in range(len(ws) - n + 1)]


def classes(s: Scene, sentence: str) -> dict[str, str]:
    """The classes a sentence shows -> the evidence."""
    out: dict[str, str] = {}
    for v in s.common:
        i = sentence.find(v)
        if i > 0 and not re.search(r"[.!?:]\s*[\"“]?$", sentence[:i]):
            out["cap"] = v
    body = re.sub(r"^[\W]*\S+", "", sentence)  # its first word aside
    for m in re.finditer(r"(?<![.!?:\"“] )(?<![.!?:\"“\u2011'’-])\b([A-Z][a-z][\w'-]*)", body):
        w = m.group(1)
        if w not in s.proper and w.split("'")[0] not in ("I",) and w not in s.names:
            out["capword"] = w
            break
    for m in _COUNT.finditer(sentence):
        n, word = int(m.group(1)), m.group(2)
        before = sentence[: m.start()]
        if n > 10 or _NOT_COUNTED.match(word) or _ID_BEFORE.search(before) or _MONTH.search(before):
            continue
        out["digit"] = m.group(0)
    grams = _grams(sentence, 4)
    outside = [g for g in grams if " ".join(g) not in s.values]
    if hit := [g for g in outside if g in s.instr4]:
        out["goal"] = " ".join(hit[0])
    if hit := [g for g in outside if g in s.desc4]:
        out["goal4"] = " ".join(hit[0])
    return out


def run(data: str, check: str | None, weak: str | None) -> list[dict[str, Any]]:
    scenes = {(d, sc.id): Scene(d, sc) for d, sc in resolved_scenarios(data)}
    lines: list[tuple[str, Scene, str]] = [("open", s, s.caller.open().text) for s in scenes.values()]
    if check:
        for r in json.loads(Path(check).read_text(encoding="utf-8"))["scenarios"]["in_sample"]:
            s = scenes[(r["domain"], r["scenario_id"])]
            lines += [("reply", s, row["reply"]) for row in r["rows"]]
    if weak:
        for row in json.loads(Path(weak).read_text(encoding="utf-8"))["rows"]:
            s = scenes[(row["item"]["domain"], row["item"]["scenario_id"])]
            lines.append(("weak", s, row["reply"]))
    rows = []
    for src, s, line in lines:
        for sent in sentences_of(line or ""):
            found = classes(s, sent)
            if key := s.key_said(sent):
                found["key"] = key
            rows.append({"src": src, "half": s.half, "domain": s.domain, "id": s.id, "sentence": sent,
                         "found": found})  # fmt: skip
    return rows


def aggregate(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    agg: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        for k in (f"{r['src']}/{r['half']}", f"all/{r['half']}"):
            agg[k]["sentences"] += 1
            for c in r["found"]:
                agg[k][c] += 1
    return {k: dict(v) for k, v in agg.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/work/shared/eva-data")
    ap.add_argument("--check", help="caller check JSON (voxbench caller check --out)")
    ap.add_argument("--weak", help="weak-turn JSON (caller check --weak-turns --out)")
    ap.add_argument("--rows", action="store_true", help="print the DEV sentences found")
    ap.add_argument("--cls", help="with --rows: only this class")
    ap.add_argument("--save", help="write the aggregates here (JSON)")
    ap.add_argument("--before", help="aggregates saved before: print before -> now")
    ap.add_argument("--test", action="store_true", help="also print and save the test half's aggregates")
    args = ap.parse_args()
    rows = run(args.data, args.check, args.weak)
    agg = {k: v for k, v in aggregate(rows).items() if args.test or not k.endswith("/test")}
    before = json.loads(Path(args.before).read_text(encoding="utf-8")) if args.before else {}
    print(f"{'lines/half':<12} {'sentences':>10} " + " ".join(f"{c:>12}" for c in CLASSES))
    for k in sorted(agg):
        a, b = agg[k], before.get(k)
        figs = [f"{b.get(c, 0)}->{a.get(c, 0)}" if b is not None else str(a.get(c, 0)) for c in CLASSES]
        print(f"{k:<12} {a['sentences']:>10} " + " ".join(f"{x:>12}" for x in figs))
    if args.rows:
        for r in rows:
            if r["half"] == "dev" and r["found"] and (not args.cls or args.cls in r["found"]):
                print(f"{r['src']:5} {r['domain']}/{r['id']} {r['found']} :: {r['sentence']}")
    if args.save:
        Path(args.save).write_text(json.dumps(agg, indent=1, sort_keys=True), encoding="utf-8")


if __name__ == "__main__":
    main()
