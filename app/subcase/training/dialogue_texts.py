"""Translated dialogue as training text for the multilingual model.

Data v1 (Wikipedia summaries, fortunes, the Debian Reference) has no dialogue, the genre
most subtitles are.  The story campaigns of Battle for Wesnoth (Debian
``wesnoth-1.16-<campaign>``, GPL-2+) are dialogue between named characters, translated
into Spanish, French, German and Portuguese by the game's translators: short lines,
names addressed in the vocative ("Delfador, my old friend!"), questions and
exclamations, a narrator between scenes.

The translations (gettext ``.mo`` catalogues) are sorted by their English text, so the
order of the lines comes from the campaign's own scenario files (WML): each translatable
``message=`` and ``story=`` string in file order is looked up in the language's catalogue.
A line the catalogue lacks (untranslated) breaks the run, so no document spans it.
Lines with run-time substitutions (``$unit.name``) are left out, since their words are not
known.  Consecutive lines of a scenario form documents of up to ~120 words, as for the
translated help, so that training windows run across lines as they run across cues.
Whole campaigns are held out (``VAL_CAMPAIGNS``), so held-out lines bring names and
stories the model did not see.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator
from pathlib import Path

CAMPAIGNS = ("did", "dm", "dw", "ei", "httt", "l", "low", "nr", "sof", "sota", "sotbe", "thot", "trow",
             "tsg", "ttb", "utbs")
PACKAGES = tuple(f"wesnoth-1.16-{c}" for c in CAMPAIGNS)
VAL_CAMPAIGNS = ("Liberty", "The_South_Guard")
# catalogue folders per language (pt: European and Brazilian, translated separately)
FOLDERS: dict[str, tuple[str, ...]] = {"es": ("es",), "fr": ("fr",), "de": ("de",), "pt": ("pt", "pt_BR")}
DOC_WORDS = 120

# a translatable WML string after message= or story=: _ "text", where "" is a literal quote
_STRING = re.compile(r'\b(?:message|story)\s*=\s*_\s*"((?:[^"]|"")*)"', re.S)
_MARKUP = re.compile(r"<[^>]+>")


def _lines(cfg: Path) -> Iterator[str]:
    text = cfg.read_text(encoding="utf-8", errors="replace")
    text = re.sub(r"(?m)^\s*#.*$", "", text)  # WML comments (also #define/#enddef lines)
    for m in _STRING.finditer(text):
        yield m.group(1).replace('""', '"')


def _clean(line: str) -> str | None:
    if "$" in line or "{" in line or "@" in line:
        return None
    text = re.sub(r"\s+", " ", _MARKUP.sub("", line)).strip()
    return text if len(text.split()) >= 2 else None


def read_catalogue(path: Path) -> dict:
    """A gettext catalogue (.mo) as {English: translation}; empty when the file is not there."""
    if not path.is_file():
        return {}
    with open(path, "rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


def _catalogue(root: Path, folder: str, campaign_domain: str) -> dict:
    return read_catalogue(root / "usr/share/games/wesnoth/1.16/locale" / folder / "LC_MESSAGES" / f"{campaign_domain}.mo")


def _domain(campaign_dir: Path) -> str | None:
    """The campaign's textdomain, from its _main.cfg (#textdomain wesnoth-httt)."""
    main = campaign_dir / "_main.cfg"
    if not main.is_file():
        return None
    m = re.search(r"#textdomain\s+(\S+)", main.read_text(encoding="utf-8", errors="replace"))
    return m.group(1) if m else None


def documents(scenarios: list[list[str]], catalogue: dict,
              clean: Callable[[str], str | None] = _clean) -> list[str]:
    """The translations of each scene's lines in order, joined into documents of up to ``DOC_WORDS`` words;
    a line ``clean`` refuses is skipped, a line the catalogue lacks breaks the run."""
    docs: list[str] = []
    for lines in scenarios:
        current: list[str] = []
        for line in lines:
            cleaned = clean(line)
            if cleaned is None:
                continue
            translated = catalogue.get(line)
            translated = clean(translated) if isinstance(translated, str) and translated else None
            if translated is None:  # untranslated: the run breaks here
                if current:
                    docs.append(" ".join(current))
                    current = []
                continue
            current.append(translated)
            if sum(len(t.split()) for t in current) >= DOC_WORDS:
                docs.append(" ".join(current))
                current = []
        if current:
            docs.append(" ".join(current))
    return docs


def dialogue_by_language(roots: list[Path], langs: tuple[str, ...]) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """{"train": {lang: [(source, text)]}, "val": {...}} from the unpacked campaign packages under ``roots``
    (folders into which the .debs were unpacked with ``dpkg -x``); the campaigns of ``VAL_CAMPAIGNS`` go
    to "val"."""
    found: dict[str, dict[str, list[tuple[str, str]]]] = {"train": {l: [] for l in langs},
                                                          "val": {l: [] for l in langs}}
    for root in roots:
        campaigns = root / "usr/share/games/wesnoth/1.16/data/campaigns"
        if not campaigns.is_dir():
            continue
        for campaign in sorted(p for p in campaigns.iterdir() if p.is_dir()):
            domain = _domain(campaign)
            if domain is None:
                continue
            scenarios = [list(_lines(cfg)) for cfg in sorted(campaign.rglob("*.cfg"))]
            split = "val" if campaign.name in VAL_CAMPAIGNS else "train"
            for lang in langs:
                for folder in FOLDERS[lang]:
                    docs = documents(scenarios, _catalogue(root, folder, domain))
                    found[split][lang] += [("wesnoth", d) for d in docs]
    return found
