"""Profiles: what the editor taught in the files of one series, carried to the next file.

A profile is a named domain ("W3C talks", "Lupin S1").  The edit logs are the
source of truth: a profile is *built* from them (or from corrected subtitle
files, ``build``) and can always be rebuilt; building twice from the
same logs gives the same bytes (sorted keys, entries in a fixed order, nothing
from the clock).  This module is the profile itself: its entries, its file
and the validation of that file.

What it holds:

- **house style**: per category (sound cues, speaker labels) the style the
  editor's fixes showed, counted per file; a style is kept only when no file
  showed another one;
- **a lexicon of forms in context**, each with its evidence (decisions, of
  which changes, and files):
  - *phrases*: runs of capitalised words the editor decided together (names,
    titles, multi-word terms: "Web Content Accessibility Guidelines");
  - *contexts*: a word between its two neighbours ("the|web|page");
  - *words*: a word anywhere away from sentence starts (mixed forms and
    acronyms; a Title form only for a word the model barely knows, decided
    where the profile is applied);
- **review hints**, which change no word:
  - *confirms*: a word the editor wrote one way in every file (decided at
    least ``build.MIN_EVIDENCE`` times in as many files, every saved file
    agreeing): where the model doubts that very form, the editor has answered
    already and the word is not asked again;
  - *asks*: a word between the same neighbours that the editor changed to a
    form, with too little evidence for an entry (one file, one decision, or a
    saved file writing it otherwise): where the model writes it otherwise, the
    word is raised for review instead of being changed.

No model adaptation is stored: a correction of the tagging head fitted in
numpy on the hidden states of the words decided in earlier files turned about
as many unseen words wrong as right (``docs/research/scripts/head_update.py --series``;
docs/research/2026-11-23-profiles-on-a-series.md).

The file is JSON, versioned (``PROFILE_SCHEMA``), validated on load and
never executed.  A profile records the model it was built with; one from
another model version is refused (``ProfileError``), and can be rebuilt from
its logs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from subcase.errors import SubcaseError

PROFILE_SCHEMA = 1
KINDS = ("phrase", "context", "word", "confirm", "ask", "term")
CHANGING = ("phrase", "context", "word")  # the kinds learned from decisions that re-case words
IMPORTED = ("term",)  # the kinds a user hands in (review/terms.py); a rebuild from the logs keeps them
NAME_RE = re.compile(r"^[\w][\w .()+-]{0,79}$")
STYLE_NAMES = {"lower", "upper", "title", "model"}
CATEGORY_NAMES = {"sound-cues", "speaker-labels"}


class ProfileError(SubcaseError):
    """A profile cannot be read, built or used; the message says why, in one line."""


@dataclass
class Entry:
    """One learned form with its evidence."""

    form: str
    decisions: int = 0   # human decisions for this form
    changes: int = 0     # of which changed the model's form
    files: int = 0       # files it was decided in
    source: str = ""     # an imported entry: the list it came from (a term list's file name)

    def as_json(self) -> dict:
        out: dict = {"form": self.form, "decisions": self.decisions, "changes": self.changes, "files": self.files}
        if self.source:
            out["source"] = self.source
        return out


@dataclass
class Profile:
    name: str
    model_version: str
    styles: dict[str, str] = field(default_factory=dict)             # category -> style
    entries: dict[str, dict[str, Entry]] = field(default_factory=lambda: {k: {} for k in KINDS})
    removed: list[str] = field(default_factory=list)                 # entry ids the editor removed
    sources: dict = field(default_factory=dict)                      # what it was built from (counts)

    # -- identity of entries ------------------------------------------------
    @staticmethod
    def entry_id(kind: str, key: str) -> str:
        return f"{kind}:{key}"

    def active(self, kind: str) -> dict[str, Entry]:
        gone = set(self.removed)
        return {k: e for k, e in self.entries[kind].items() if self.entry_id(kind, k) not in gone}

    def remove(self, entry_id: str) -> None:
        kind, _, key = entry_id.partition(":")
        known = key in self.styles if kind == "style" else kind in KINDS and key in self.entries[kind]
        if not known:
            raise ProfileError(f"profile {self.name}: no entry {entry_id}")
        if entry_id not in self.removed:
            self.removed = sorted({*self.removed, entry_id})

    def restore(self, entry_id: str) -> None:
        self.removed = [r for r in self.removed if r != entry_id]

    def active_styles(self) -> dict[str, str]:
        return {c: s for c, s in self.styles.items() if self.entry_id("style", c) not in set(self.removed)}

    def describe(self, entry_id: str) -> str:
        """What the editor reads about an entry: "your profile writes this 'Web Accessibility'"."""
        kind, _, key = entry_id.partition(":")
        if kind == "style":
            return f"your profile writes {key.replace('-', ' ')} in {self.styles.get(key, '?')} case"
        e = self.entries.get(kind, {}).get(key)
        if e is None:
            return "from your profile"
        where = f" after '{key.split('|')[0]}'" if kind in ("context", "ask") and key.split("|")[0] else ""
        evidence = (f"{e.decisions} decision{'s' if e.decisions != 1 else ''} in {e.files} "
                    f"file{'s' if e.files != 1 else ''}")
        if kind == "confirm":
            return f"your profile confirms '{e.form}' ({evidence})"
        if kind == "ask":
            return f"your profile saw this written '{e.form}'{where} ({evidence}): check it"
        if kind == "term":
            return f"the term list '{e.source}' writes '{e.form}'"
        return f"your profile writes this '{e.form}'{where} ({evidence})"

    def add_terms(self, terms) -> int:
        """Import a term list (``terms.TermList``) as ``term`` entries; a term already there takes the new
        list's form.  Returns the number of entries added or changed."""
        n = 0
        for term in terms.terms:
            key = term.lower()
            old = self.entries["term"].get(key)
            if old is None or (old.form, old.source) != (term, terms.name):
                self.entries["term"][key] = Entry(term, source=terms.name)
                n += 1
        return n

    def size(self) -> int:
        return sum(len(self.active(k)) for k in KINDS) + len(self.active_styles())

    # -- JSON ------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        data = {
            "schema": PROFILE_SCHEMA,
            "name": self.name,
            "model_version": self.model_version,
            "styles": dict(sorted(self.styles.items())),
            "entries": {k: {key: e.as_json() for key, e in sorted(self.entries[k].items())} for k in KINDS},
            "removed": sorted(self.removed),
            "sources": self.sources,
        }
        return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")

    @classmethod
    def from_bytes(cls, raw: bytes, origin: str = "profile") -> Profile:
        """Validate and read a profile file; anything unexpected is a one-line ProfileError."""
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ProfileError(f"{origin}: not a profile (invalid JSON: {exc})") from None
        except RecursionError:  # json.loads gives up on arrays nested some thousand deep, no profile is
            raise ProfileError(f"{origin}: not a profile (JSON nested too deep)") from None
        if not isinstance(data, dict):
            raise ProfileError(f"{origin}: not a profile (not a JSON object)")
        if data.get("schema") != PROFILE_SCHEMA:
            raise ProfileError(f"{origin}: profile schema {data.get('schema')!r} is not supported "
                               f"(this subcase reads schema {PROFILE_SCHEMA})")
        name, version = data.get("name"), data.get("model_version")
        if not isinstance(name, str) or not valid_name(name):
            raise ProfileError(f"{origin}: invalid profile name {name!r}")
        if not isinstance(version, str) or not version:
            raise ProfileError(f"{origin}: no model version")
        styles = data.get("styles", {})
        if (not isinstance(styles, dict) or not all(c in CATEGORY_NAMES and s in STYLE_NAMES
                                                    for c, s in styles.items())):
            raise ProfileError(f"{origin}: invalid house styles")
        entries_raw = data.get("entries", {})
        if not isinstance(entries_raw, dict) or set(entries_raw) - set(KINDS):
            raise ProfileError(f"{origin}: invalid entries")
        entries: dict[str, dict[str, Entry]] = {k: {} for k in KINDS}
        for kind, items in entries_raw.items():
            if not isinstance(items, dict):
                raise ProfileError(f"{origin}: invalid {kind} entries")
            for key, e in items.items():
                if not (isinstance(key, str) and isinstance(e, dict) and isinstance(e.get("form"), str)
                        and all(isinstance(e.get(n, 0), int) and e.get(n, 0) >= 0
                                for n in ("decisions", "changes", "files"))
                        and isinstance(e.get("source", ""), str)
                        and _consistent(kind, key, e["form"])):
                    raise ProfileError(f"{origin}: invalid {kind} entry {key!r}")
                entries[kind][key] = Entry(e["form"], e.get("decisions", 0), e.get("changes", 0), e.get("files", 0),
                                           e.get("source", ""))
        removed = data.get("removed", [])
        if not isinstance(removed, list) or not all(isinstance(r, str) for r in removed):
            raise ProfileError(f"{origin}: invalid list of removed entries")
        sources = data.get("sources", {})
        if not isinstance(sources, dict):
            raise ProfileError(f"{origin}: invalid sources")
        return cls(name, version, dict(styles), entries, sorted(removed), sources)


def _consistent(kind: str, key: str, form: str) -> bool:
    """An entry's form writes the same letters as its key (a profile can only change case)."""
    if kind in ("context", "ask"):
        parts = key.split("|")
        return len(parts) == 3 and parts[1] == form.lower() and bool(form)
    return bool(form) and key == form.lower() and (kind != "phrase" or " " in key)


def valid_name(name: str) -> bool:
    return bool(NAME_RE.match(name)) and name.strip() == name and name not in (".", "..")


def context_key(left: str, sep_left: str, lower: str, sep_right: str, right: str) -> str:
    return f"{left}{sep_left}|{lower}|{sep_right}{right}"


__all__ = ["CATEGORY_NAMES", "CHANGING", "IMPORTED", "Entry", "KINDS", "PROFILE_SCHEMA", "Profile", "ProfileError", "context_key",
           "valid_name"]
