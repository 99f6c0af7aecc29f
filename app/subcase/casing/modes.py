"""What the truecaser may change, by mode.

- auto (the default): each passage as its letters say (casing/auto.py): lower
  case is restored, capitals are recased as caps mode does, real casing is kept.
- restore: ignore the input's casing; every word takes the model's form.
- caps: only lines written in capitals (broadcast captions) are recased: at
  least ``CAPS_SHARE`` of their cased letters are capitals, so a stray lower-case
  letter (``iPHONE``, ``McDONALD'S``) does not leave a line in capitals; a word
  the line writes in mixed case that the lexicon knows keeps the lexicon's form
  (``iPhone``, ``McDonald's``).  Other lines keep their input casing.
- keep: the model may raise letters but never lowers a capital the input has.
"""

from __future__ import annotations

from enum import Enum
from typing import Mapping

from .tags import Tag, apply_tag, case_mask_key


class Mode(str, Enum):
    AUTO = "auto"
    RESTORE = "restore"
    CAPS = "caps"
    KEEP = "keep"


NAMES: tuple[str, ...] = tuple(m.value for m in Mode)  # for settings, menus and --mode
DEFAULT = Mode.AUTO
HELP = {
    Mode.AUTO: "decide passage by passage: restore lower case, recase capitals, keep real casing (default)",
    Mode.RESTORE: "ignore the input's casing",
    Mode.CAPS: "recase only lines written in capitals (4 of 5 cased letters or more)",
    Mode.KEEP: "never lower a capital the input has",
}


CAPS_SHARE = 0.8  # of a line's cased letters, in capitals, for caps mode to recase it


def cased_letters(text: str) -> list[str]:
    """The letters that have an upper and a lower case (not ``º``, CJK or digits)."""
    return [c for c in text if c.lower() != c.upper()]


def is_caps_line(words: list[str]) -> bool:
    letters = cased_letters("".join(words))
    return len(letters) >= 2 and sum(c.isupper() for c in letters) >= CAPS_SHARE * len(letters)


def known_mixed(word: str, lexicon: Mapping[str, str]) -> str | None:
    """The lexicon's form of a word a capitals line writes in mixed case (``iPHONE`` -> ``iPhone``),
    or None: its lower-case letters say the word is not plain capitals, and the lexicon knows how."""
    letters = cased_letters(word)
    if not any(c.islower() for c in letters) or not any(c.isupper() for c in letters):
        return None
    key = case_mask_key(word)
    if key not in lexicon and not (key.endswith("s") and key[:-1] in lexicon):
        return None
    form = apply_tag(word, Tag.M, lexicon)
    return form if form != word.lower() else None


def merge_keep(original: str, cased: str) -> str:
    """``cased``, but every letter that is upper case in ``original`` stays upper."""
    return "".join(c.upper() if o.isupper() else c for o, c in zip(original, cased))
