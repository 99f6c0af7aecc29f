"""What the truecaser may change, by mode.

- restore: ignore the input's casing; every word takes the model's form.
- caps: only lines written entirely in capitals (broadcast captions) are
  recased; other lines keep their input casing.
- keep: the model may raise letters but never lowers a capital the input has.
"""

from __future__ import annotations

from enum import Enum


class Mode(str, Enum):
    RESTORE = "restore"
    CAPS = "caps"
    KEEP = "keep"


NAMES: tuple[str, ...] = tuple(m.value for m in Mode)  # for settings, menus and --mode
HELP = {
    Mode.RESTORE: "ignore the input's casing (default)",
    Mode.CAPS: "recase only lines written entirely in capitals",
    Mode.KEEP: "never lower a capital the input has",
}


def is_caps_line(words: list[str]) -> bool:
    letters = [c for w in words for c in w if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def merge_keep(original: str, cased: str) -> str:
    """``cased``, but every letter that is upper case in ``original`` stays upper."""
    return "".join(c.upper() if o.isupper() else c for o, c in zip(original, cased))
