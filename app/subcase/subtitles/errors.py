"""The errors and warnings the subtitle core reports.

Callers (the editor, batch conversion) only ever need to catch one exception
type (``subcase.errors.SubcaseError``, which SubtitleError derives from): anything that makes a file unreadable or unsavable is a SubtitleError
whose message names the file and says what is wrong, so it can be shown to a
user as is.  Problems the reader can work around are ParseWarnings instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from subcase.errors import SubcaseError


class SubtitleError(SubcaseError):
    """A file cannot be read or written as subtitles; the message says why."""


class MixedEncodingError(SubtitleError):
    """The file's lines are in different text encodings (some UTF-8, some not).

    Refused rather than guessed: decoding it under one legacy code page would
    turn the UTF-8 letters into mojibake, and recasing that mojibake changes
    bytes that can never be restored.
    """


class MarkError(SubtitleError):
    """A punctuation mark cannot be written where it was asked for (not at a word's edge, or the word
    already has one): refused, so that restored punctuation never splits a token or doubles a mark."""


@dataclass(frozen=True, slots=True)
class ParseWarning:
    """A problem the reader worked around, at a 1-based line of the input."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"
