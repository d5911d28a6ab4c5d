"""Placeholder and culture resolution.

EVA scenarios keep personal names, phone numbers and ITSM location names as tokens
(`<FIRST_NAME>`, `<LOC:East Campus>`, ...) and resolve them per language just in time:
for the simulator's goal, the initial database, the expected database and the judges.
Every consumer must resolve the same way, or hashes stop matching.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

_LOC_RE = re.compile(r"<LOC:([^>]+)>")


class NameAlias(BaseModel):
    """One entry of EVA's `itsm_aliases/`: a canonical name, its aliases and translations."""

    name: str
    translatable: bool = False
    base: list[str] = Field(default_factory=list)
    translations: dict[str, list[str]] = Field(default_factory=dict)

    def aliases(self, lang: str) -> list[str]:
        """The spellings a caller speaking `lang` might use: the base aliases, then that
        language's own translations (EVA's loader). A German translation is not an English
        caller's alias: "Hauptsitz" must not find Headquarters in an English conversation."""
        seen: dict[str, None] = {}
        for a in [*self.base, *self.translations.get(lang, [])]:
            seen.setdefault(a, None)
        return list(seen)

    def render(self, lang: str) -> str:
        """How the name is spoken in `lang`."""
        if lang != "en" and self.translatable and self.translations.get(lang):
            return self.translations[lang][0]
        return self.name


def placeholder_values(scenario: Any, lang: str = "en") -> dict[str, str]:
    """Map each placeholder token to its value for `lang` (English when missing)."""
    names = scenario.culture_overrides.get(lang) or scenario.culture_overrides.get("en")
    roman = (
        scenario.romanized_culture_overrides.get(lang)
        or scenario.romanized_culture_overrides.get("en")
        or names
    )
    values: dict[str, str] = {}
    if names is not None:
        values["<FIRST_NAME>"] = names.first_name
        values["<LAST_NAME>"] = names.last_name
        if names.phone:
            values["<PHONE>"] = names.phone
        if names.companion and names.companion.get("first_name"):
            values["<COMPANION_FIRST_NAME>"] = str(names.companion["first_name"])
    if roman is not None:
        values["<FIRST_NAME_ROMANIZED>"] = roman.first_name.lower()
        values["<LAST_NAME_ROMANIZED>"] = roman.last_name.lower()
        if roman.companion and roman.companion.get("first_name"):
            values["<COMPANION_FIRST_NAME_ROMANIZED>"] = str(roman.companion["first_name"]).lower()
    return values


class CultureResolver:
    """Resolves placeholders in any JSON-like value for one scenario and language."""

    def __init__(self, values: dict[str, str], aliases: dict[str, NameAlias] | None = None, lang: str = "en"):
        self.values = values
        self.aliases = aliases or {}
        self.lang = lang
        # Longest tokens first so `<FIRST_NAME_ROMANIZED>` is never cut by `<FIRST_NAME>`.
        self._tokens = sorted(values, key=len, reverse=True)

    @classmethod
    def for_scenario(
        cls, scenario: Any, aliases: dict[str, NameAlias] | None = None, lang: str = "en"
    ) -> CultureResolver:
        return cls(placeholder_values(scenario, lang), aliases, lang)

    def text(self, s: str) -> str:
        """Resolve one string."""
        if "<" not in s:
            return s
        for tok in self._tokens:
            if tok in s:
                s = s.replace(tok, self.values[tok])
        return _LOC_RE.sub(self._loc, s)

    def _loc(self, m: re.Match[str]) -> str:
        alias = self.aliases.get(_alias_key(m.group(1)))
        return alias.render(self.lang) if alias else m.group(1)

    def resolve(self, obj: Any) -> Any:
        """Resolve placeholders in strings, recursively, returning a new value."""
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, dict):
            return {self.text(k) if isinstance(k, str) else k: self.resolve(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.resolve(v) for v in obj]
        return obj


def _alias_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", name.lower()).strip()


def inject_name_aliases(db: Any, aliases: dict[str, NameAlias], lang: str) -> Any:
    """Add `name_aliases` (base + `lang`'s translations) to every dict whose `name`
    matches an alias entry (in place).

    Applied identically to the initial and the expected database, so it never changes
    whether the two hash the same; it lets tools resolve spoken names ("East Campus").
    """
    if not aliases:
        return db
    if isinstance(db, dict):
        name = db.get("name")
        if isinstance(name, str):
            entry = aliases.get(_alias_key(name))
            if entry is not None:
                db["name_aliases"] = entry.aliases(lang)
        for k, v in db.items():
            if k != "name_aliases":
                inject_name_aliases(v, aliases, lang)
    elif isinstance(db, list):
        for v in db:
            inject_name_aliases(v, aliases, lang)
    return db


def index_aliases(entries: list[NameAlias]) -> dict[str, NameAlias]:
    """Key alias entries by their normalised canonical name."""
    return {_alias_key(e.name): e for e in entries}
