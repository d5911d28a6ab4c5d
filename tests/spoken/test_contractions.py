"""The one table of contractions (``spoken/lexicon_data/contractions_en.json``): the goal caller
hears a phrase in either form of it and the invariance bench rewrites agent turns with it."""

from __future__ import annotations

import re

from voxbench.bench.perturb import perturb, table
from voxbench.pipelines.caller.goal.lang import either_form
from voxbench.spoken.contractions import contractions


def test_the_table_pairs_a_contraction_with_a_full_form() -> None:
    pairs = contractions()
    assert pairs and len(set(pairs)) == len(pairs)
    assert all("'" in short and "'" not in full for short, full in pairs)
    assert ("I'm", "I am") in pairs  # written as in running text: the pronoun a capital


def test_the_bench_rewrites_with_the_table_the_caller_hears() -> None:
    assert table().grammar.contractions == contractions()


def test_the_caller_hears_every_pair_in_either_form() -> None:
    for short, full in contractions():
        assert re.fullmatch(either_form(short.lower()), full.lower()), (short, full)
        assert re.fullmatch(either_form(full.lower()), short.lower()), (short, full)


def test_the_bench_rewrites_every_pair_both_ways() -> None:
    """A turn saying only a contraction gets its full form, one saying only a full form its
    contraction (before a word: the bench contracts nothing at a turn's end)."""
    firsts = {short: full for short, full in reversed(contractions())}  # "can't" -> 'cannot'
    for short, full in contractions():
        assert perturb("contractions", f"Well, {short} go.", "s") == f"Well, {firsts[short]} go."
        assert perturb("contractions", f"Well, {full} go.", "s") == f"Well, {short} go."
