"""FreeDroidRPG's translated dialogue as multilingual training text (data v5).

The Wesnoth campaigns (``dialogue_texts``) gave the multilingual model its first dialogue;
FreeDroidRPG (Debian ``freedroidrpg-data``, GPL-2+) adds conversations of another kind: a
player and the people of a ruined town talking in short everyday lines ("Hi! I'm new here.",
"What do you do all day here at the armory?"), translated by the game's translators into
Spanish, French, German and Brazilian Portuguese, 40,000-60,000 words each.

Each character's dialog is a Lua file whose translatable strings (``_"..."``) come in the
order the conversation offers them; the translations are one gettext catalogue,
``freedroidrpg-dialogs.mo``.  Lines with run-time substitutions (``%s``, ``$$NAME$$``) or
markup are left out; an untranslated line breaks the run (``dialogue_texts.documents``).
The dialogs of a few characters are held out whole (``VAL_DIALOGS``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from .dialogue_texts import documents, read_catalogue

PACKAGES = ("freedroidrpg-data",)
STORYLINE = Path("usr/share/freedroidrpg/data/storyline")
LOCALE = Path("usr/share/locale")
FOLDERS: dict[str, tuple[str, ...]] = {"es": ("es",), "fr": ("fr",), "de": ("de",), "pt": ("pt_BR",)}
VAL_DIALOGS = ("Dixon", "Kevin", "Spencer", "Francis", "Pendragon")

_STRING = re.compile(r'_"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(r"\\(.)", re.S)
_WIKI = re.compile(r"--\[\[.*?\]\]--", re.S)  # the character sheet at the top of a dialog
_COMMENT = re.compile(r"(?m)--[^\n]*$")


def _lines(lua: Path) -> Iterator[str]:
    text = _COMMENT.sub("", _WIKI.sub("", lua.read_text(encoding="utf-8", errors="replace")))
    for m in _STRING.finditer(text):
        yield _ESCAPE.sub(lambda e: "\n" if e.group(1) == "n" else e.group(1), m.group(1))


def _clean(line: str) -> str | None:
    if any(c in line for c in "%$@{}<>\\") or "\n\n" in line:
        return None
    text = re.sub(r"\s+", " ", line).strip()
    return text if len(text.split()) >= 2 else None


def _catalogue(root: Path, folder: str) -> dict:
    catalogue = read_catalogue(root / LOCALE / folder / "LC_MESSAGES" / "freedroidrpg-dialogs.mo")
    # a translation identical to the English is English copied over: untranslated
    return {k: v for k, v in catalogue.items() if v != k}


def dialogue_by_language(roots: list[Path], langs: tuple[str, ...]) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """{"train": {lang: [("freedroid", text)]}, "val": {...}} from ``freedroidrpg-data`` unpacked
    (``dpkg -x``) under one of ``roots``; the dialogs of ``VAL_DIALOGS`` go to "val"."""
    found: dict[str, dict[str, list[tuple[str, str]]]] = {"train": {lang: [] for lang in langs},
                                                          "val": {lang: [] for lang in langs}}
    for root in roots:
        dialogs = sorted((root / STORYLINE).rglob("dialogs/*.lua"))
        if not dialogs:
            continue
        split = {"train": [d for d in dialogs if d.stem not in VAL_DIALOGS],
                 "val": [d for d in dialogs if d.stem in VAL_DIALOGS]}
        for lang in langs:
            for folder in FOLDERS[lang]:
                catalogue = _catalogue(root, folder)
                for name, files in split.items():
                    scenes = [list(_lines(f)) for f in files]
                    found[name][lang] += [("freedroid", d) for d in documents(scenes, catalogue, _clean)]
    return found
