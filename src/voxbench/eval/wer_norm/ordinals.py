"""Written ordinals glued to their digits ("1er", "3e", "21e", "1ère") stay one token.

The number engine splits letters from digits ("ZK3FFW" -> "zk 3 ffw", as EVA does), and
rejoins "<digit> <suffix>" afterwards only for a table that names its suffixes
(`ordinal_suffix_pattern`: English "3 rd" -> 3rd). French names none, yet its table turns
spoken ordinals into digit + suffix ("troisième" -> 3e, "vingt-et-unième" -> 21e,
"première" -> 1ere): EVA normalises "3e" and "troisième" alike, so the written form must
keep its suffix too. For such a table the suffixes are read from its own `*_suffixed`
entries (every value, not a word list), and a digit run followed by exactly one of them
is not split. Written abbreviations the table does not produce ("3ème", "1re", "2nd") are
mapped to the table's suffix by `data/written_ordinals.json` (voxbench's table).

A suffix is kept only when it was glued in the text: "deux de" and "2 de" stay two words.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from voxbench.eval.wer_norm.config import NumberConfig


@lru_cache(maxsize=1)
def _written() -> dict[str, dict[str, str]]:
    raw = (
        resources.files("voxbench.eval.wer_norm").joinpath("data", "written_ordinals.json").read_text("utf-8")
    )
    return {k: v for k, v in json.loads(raw).items() if not k.startswith("_")}


def table_suffixes(cfg: NumberConfig) -> list[str]:
    """The letter suffixes the table writes after an ordinal's digits, longest first."""
    found = {
        s
        for table in (cfg.cardinals_suffixed, cfg.tens_suffixed, cfg.scaling_units_suffixed)
        for _, s in table.values()
        if s.isalpha()
    }
    return sorted(found, key=lambda s: (-len(s), s))


class GluedOrdinals:
    """For a table without `ordinal_suffix_pattern`: keep "<digits><suffix>" whole."""

    def __init__(self, cfg: NumberConfig, letters: str):
        self.active = not cfg.ordinal_suffix_pattern and bool(table_suffixes(cfg))
        sfx = "|".join(map(re.escape, table_suffixes(cfg))) or "(?!)"
        written = _written().get(cfg.code, {})
        # "<digit><letters>" is split unless the letters are exactly a suffix ending the word
        self.digit_letter = re.compile(rf"(?<=[0-9])(?=[{letters}])(?!(?:{sfx})(?![{letters}]))")
        alts = "|".join(map(re.escape, sorted(written, key=lambda s: (-len(s), s))))
        self._written = re.compile(rf"(?<=[0-9])({alts})(?![{letters}])") if self.active and written else None
        self._map = written

    def rewrite(self, s: str) -> str:
        """Written abbreviations -> the table's suffix ("3eme" -> "3e", "1re" -> "1ere")."""
        if self._written is None:
            return s
        return self._written.sub(lambda m: self._map[m[1]], s)
