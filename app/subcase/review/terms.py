"""Term lists: the names and terms a user already has, handed to subcase in the form to write.

Three formats are read (``read_terms``), told apart by their content:

- **plain text**: one term per line, written as it should appear ("Kramer", "WCAG",
  "iPhone", "Mountain Dew"); blank lines are skipped;
- **CCExtractor's capitalisation file** (``--capfile``, the show dictionaries of
  CCExtractor/show_specific_dictionaries): the same, one word per line, and lines
  starting with ``#`` are comments;
- **Subtitle Edit's names list** (``names.xml``, ``en_names.xml``, ``*_names_etc.xml`` in
  SubtitleEdit/subtitleedit, Dictionaries/): XML, each ``<name>`` element a name or term in its
  casing; the names under ``<blacklist>`` are words *not* to treat as names and are left out.

A list is imported into a profile as ``term`` entries (``Profile``), each naming its list, and
applied with the rest of the profile when a file is opened or converted (``profiles.apply``):

- a term of several words is matched as a phrase: its words in a row inside one cue;
- a term whose words are ordinary words too (``may``/``May``, ``us``/``US``, ``bill``/``Bill``:
  a word the model knows whole and, somewhere in the file, is sure is lower case) is *ambiguous*:
  it is written only where the model, in that context, reads the word as the term too; where
  the model is sure it is the ordinary word it is left alone; anywhere else it is raised for
  review, with a reason that names the list, and not changed;
- any other term is written wherever it appears, sound cues and speaker labels aside (their
  house style decides), and never over a word a human reviewed.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from subcase.errors import SubcaseError
from subcase.subtitles.words import has_letters, words

MAX_TERMS = 200_000          # a names list of a whole language is ~20k; more is not a term list
MAX_BYTES = 20 * 1024 * 1024
MAX_WORDS = 8                # words in one term: longer lines are sentences, not terms
FORMATS = ("text", "capfile", "subtitle-edit")


class TermListError(SubcaseError):
    """A term list cannot be read; the message says which file and why, in one line."""


@dataclass(frozen=True)
class TermList:
    name: str                     # what the editor reads in a reason: the list's file name
    format: str                   # one of FORMATS
    terms: tuple[str, ...]        # in the form to write; one per lower-cased form (the first wins)
    skipped: int = 0              # lines or names that are no term (no letters, too long)


def term_words(term: str) -> list[str]:
    """The words of a term as subcase reads the words of a cue ("Dr. Grey" -> Dr, Grey)."""
    return [w for w in words(term) if has_letters(w)]


def parse_terms(text: str, name: str) -> TermList:
    """A term list from its text; the format is told from the content (XML: Subtitle Edit)."""
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("<"):
        fmt = "subtitle-edit"
        raw = _names_xml(body, name)
    else:
        lines = [line.strip() for line in body.splitlines()]
        comments = any(line.startswith("#") for line in lines)
        fmt = "capfile" if comments else "text"
        raw = [line for line in lines if line and not line.startswith("#")]
    seen: dict[str, str] = {}
    skipped = 0
    for term in raw:
        ws = term_words(term)
        if not ws or len(ws) > MAX_WORDS:
            skipped += 1
            continue
        seen.setdefault(" ".join(ws).lower(), " ".join(ws))
    if not seen:
        raise TermListError("no terms in it (one term per line, a CCExtractor capitalisation "
                            "file or a Subtitle Edit names list)", name)
    if len(seen) > MAX_TERMS:
        raise TermListError(f"{len(seen)} terms, more than a term list holds ({MAX_TERMS})", name)
    return TermList(name, fmt, tuple(seen.values()), skipped)


def _names_xml(text: str, name: str) -> list[str]:
    try:
        root = ET.fromstring(text)  # no DTDs or entities are expanded beyond the XML built-ins
    except ET.ParseError as exc:
        raise TermListError(f"not a Subtitle Edit names list (invalid XML: {exc})", name) from None
    if root.tag not in ("names", "ignore_words", "root") and root.find(".//name") is None:
        raise TermListError("not a Subtitle Edit names list (no <name> elements)", name)
    black = {id(e) for b in root.iter("blacklist") for e in b.iter("name")}
    return [(e.text or "").strip() for e in root.iter("name") if id(e) not in black]


def read_terms(path: Path) -> TermList:
    """Read a term list file (UTF-8, with or without a byte-order mark)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise TermListError(f"{size} bytes is too large for a term list", path)
        raw = path.read_bytes()
    except FileNotFoundError:
        raise TermListError("no such term list", path) from None
    except IsADirectoryError:
        raise TermListError("is a folder, not a term list", path) from None
    except OSError as exc:
        raise TermListError(f"cannot read it ({exc.strerror or exc})", path) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TermListError("not UTF-8 text; save the list as UTF-8", path) from None
    if "\0" in text:
        raise TermListError("a binary file, not a term list", path)
    return parse_terms(text, path.name)


__all__ = ["FORMATS", "TermList", "TermListError", "parse_terms", "read_terms", "term_words"]


def with_terms(profile, lists: list[TermList], model_version: str):
    """``profile`` (a ``Profile``, or None for an empty one) with the term lists imported, as a copy:
    ``--terms`` on the command line never writes the stored profile."""
    from .profiles.profile import Profile

    out = Profile("terms", model_version) if profile is None else Profile.from_bytes(profile.to_bytes())
    for terms in lists:
        out.add_terms(terms)
    return out


__all__ += ["with_terms"]


def import_into_profile(name: str, paths: list[Path], model_version: str):
    """Read the term lists, then add them to the stored profile ``name`` (made for ``model_version`` if it
    does not exist) and save it: ``subcase profile terms`` and File > Import Terms.  A list that cannot
    be read changes nothing.  Returns (the profile, the lists, entries added or changed per list)."""
    from .profiles import store as profile_store
    from .profiles.profile import Profile

    lists = [read_terms(Path(p)) for p in paths]
    stored = profile_store.find(name)
    profile = stored if stored is not None else Profile(name, model_version)
    counts = [profile.add_terms(t) for t in lists]
    profile_store.save(profile)
    return profile, lists, counts


__all__ += ["import_into_profile"]
