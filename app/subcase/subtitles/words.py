"""Words and punctuation in plain (markup-free) subtitle text.

One definition of "word" is shared by the document core, the truecaser, the
training pipeline and the metrics, so that a word counted in evaluation is the
same word the model tags and the same span the editor changes.

A word is a run of letters or digits, optionally joined by inner apostrophes
("don't", "blood's", "O'Brien").  Hyphens split words: "Jean-Luc" is two words,
each Title case.  Everything else that is not white space is punctuation; the
model sees punctuation tokens when the input has them.
"""

from __future__ import annotations

import re
from sys import intern
from typing import NamedTuple

WORD_RE = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
# one pass: group 1 is a word, otherwise a single punctuation character
TOKEN_RE = re.compile(r"([^\W_]+(?:['\u2019][^\W_]+)*)|[^\w\s]|_")


class Token(NamedTuple):
    """A word or punctuation mark with its offsets in the text it came from.

    Immutable as a frozen dataclass would be, but a tuple: a film is some 16,000 tokens, made
    again on every casing, and a frozen dataclass's ``__init__`` costs twice a tuple's (0.50 against 0.24 us)."""

    start: int
    end: int
    text: str
    is_word: bool


def tokenize(text: str, offset: int = 0) -> list[Token]:
    """Split plain text into words and single punctuation characters.  Each token's text is interned: a file
    says the same few thousand words again and again (a rolling caption each of them three times), and one
    string for each saves some 50 bytes a token (issue #56 item 5)."""
    return [Token(m.start() + offset, m.end() + offset, intern(m.group()), m.group(1) is not None)
            for m in TOKEN_RE.finditer(text)]


def words(text: str) -> list[str]:
    """The words of a plain text, in order."""
    return WORD_RE.findall(text)


def has_letters(word: str) -> bool:
    return any(map(str.isalpha, word))
