"""Case tags and case masks.

Every word gets one of four tags (Rei et al. 2020, extended with the mixed
class of Caseiro's capitalization masks):

- L: all lower case ("the")
- T: Title case, first letter upper and the rest lower ("London", "I", "I'm")
- U: all upper case ("FBI"); a trailing possessive 's stays lower ("FBI's")
- M: anything else ("iPhone", "McAdams"); the exact form comes from the
  case-mask lexicon, and an M word the lexicon does not know falls back to T,
  or, after a French elided article or pronoun ("l'", "d'", "qu'"), to that
  prefix in lower case and the rest as the lexicon or Title case writes it
  ("d'Internet", "l'Élysée", "l'iPhone"), and after "Mc" or "O'" to a capital on
  each side ("McGregor", "O'Brien").
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Callable, Mapping, Sequence


class Tag(str, Enum):
    L = "L"
    T = "T"
    U = "U"
    M = "M"


TAGS: tuple[Tag, ...] = (Tag.L, Tag.T, Tag.U, Tag.M)
TAG_NAMES = {Tag.L: "lower", Tag.T: "Title", Tag.U: "UPPER", Tag.M: "Mixed"}
# A word written in a tag's form (CasingEngine.form, the lexicon's masks for Mixed): what house style,
# learning, profiles and the review keys are given, so they need no engine of their own.
TagWriter = Callable[[str, Tag], str]

_POSSESSIVES = ("'s", "\u2019s")
# French elision: a lower-case article, pronoun or conjunction joined to the next word by an apostrophe.
# The multilingual model tags "d'internet" Mixed (a capital after the apostrophe), and 419 of the 1,687
# masks of its lexicon are such words, one per name ("d'Afrique", "d'Alger"); a name it does not list
# got Title case before ("D'internet", "L'élysée").
_ELISION = re.compile(r"(?i)(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)['\u2019](?=\w)")
# Name prefixes written with a capital on each side ("McGregor", "O'Brien"): 257 of the English lexicon's
# 1,139 masks are "Mc" names and 11 "O'" names, one per name.  ("Mac" is left out: "MacArthur" but "Mackenzie".)
_NAME_PREFIX = re.compile(r"(?i)(?:mc|o['\u2019])(?=[^\W\d_])")


def _letters(word: str) -> str:
    return "".join(c for c in word if c.isalpha())


def tag_of(word: str) -> Tag:
    """The tag that describes how ``word`` is cased."""
    letters = _letters(word)
    if not letters or letters.islower():
        return Tag.L
    if letters.isupper() and len(letters) >= 2:
        return Tag.U
    if letters[0].isupper() and (len(letters) == 1 or letters[1:].islower()):
        return Tag.T
    if word.endswith(_POSSESSIVES):
        stem = _letters(word[:-2])
        if len(stem) >= 2 and stem.isupper():
            return Tag.U
    return Tag.M


def case_mask_key(word: str) -> str:
    """The lexicon key of a word: its lower-case form without a possessive 's."""
    lower = word.lower()
    for p in _POSSESSIVES:
        if lower.endswith(p) and len(lower) > 2:
            return lower[: -len(p)]
    return lower


def _title(word: str) -> str:
    # A word that opens with a number keeps its letters in lower case: the Title form of "84th",
    # "1990s" or "3pm" at a sentence start is the word itself, never "84Th" or "1990S".  One
    # letter after the number, other than a plural's "s", is a name in capitals ("3D", "4K").
    first_letter = next((i for i, c in enumerate(word) if c.isalpha()), None)
    if first_letter is not None and any(c.isdigit() for c in word[:first_letter]):
        letters = [c for c in word if c.isalpha()]
        if len(letters) > 1 or letters[0].lower() == "s":
            return word.lower()
    out = []
    seen_letter = False
    for c in word:
        if c.isalpha():
            out.append(c.lower() if seen_letter else c.upper())
            seen_letter = True
        else:
            out.append(c)
    return "".join(out)


def apply_tag(word: str, tag: Tag, lexicon: Mapping[str, str] | None = None) -> str:
    """Return ``word`` cased as ``tag`` says; only letter case ever changes."""
    if tag is Tag.L:
        return word.lower()
    if tag is Tag.T:
        return _title(word)
    if tag is Tag.U:
        if word.lower().endswith(_POSSESSIVES) and len(_letters(word)) > 2:
            return word[:-1].upper() + word[-1].lower()
        return word.upper()
    # Tag.M: take the mask from the lexicon, keeping a possessive suffix; a plural
    # ("iPads", "McDonalds") takes the mask of its singular.
    key = case_mask_key(word)
    form = lexicon.get(key) if lexicon else None
    if form is None and lexicon and key.endswith("s") and len(key) > 2:
        singular = lexicon.get(key[:-1])
        form = singular + "s" if singular is not None else None
    if form is None or len(form) != len(key):
        elided = _ELISION.match(word)
        if elided is not None:  # the rest as the lexicon writes it, or in Title case
            return elided.group().lower() + apply_tag(word[elided.end():], Tag.M, lexicon)
        prefix = _NAME_PREFIX.match(word)
        if prefix is not None and len(word) > prefix.end() + 1:
            return _title(prefix.group()) + apply_tag(word[prefix.end():], Tag.M, lexicon)
        return _title(word)
    return form + word[len(key):].lower()


def ranked(probs: Sequence[float]) -> list[tuple[Tag, float]]:
    """Tags with their probabilities (in TAGS order), most probable first."""
    return sorted(zip(TAGS, probs), key=lambda tp: -tp[1])
