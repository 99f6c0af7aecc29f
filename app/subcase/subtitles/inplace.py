"""Formats whose letters are written back where they were read (SCC, EBU STL): cues over the file's own codes.

Such a file is not rebuilt from its cues.  Every character of a cue remembers the span of the file text its
code came from, and saving rewrites, for each character that changed, only that span, with the new
character's code of the same length; everything else (control codes, headers, timecodes, padding) stays as
read, so an unedited document renders the very text it was read from.  The format module decodes the file
(``SourcedText``) and says how a character is coded (``Encoder``); this module writes.

A cue's codes need not lie together in the file (a roll-up caption's letters are spread over lines that hold
other captions' codes), so the document's first cue renders the whole file and the others nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from .document import Cue, RawCue
from .errors import SubtitleError

NO_SOURCE = (-1, 0)  # a character with no code of its own to write over: a line break, a code pair, a gap

# The code of a new character in place of ``old`` (the file text of the code it replaces), the same length as
# ``old``; SubtitleError (a reason without the file's name) when the format cannot write it there.
Encoder = Callable[[str, str], str]


@dataclass(eq=False)
class InPlaceCue(Cue):
    """A cue whose letters are written over their codes in the file."""

    # per character of the text as read: (offset, length) of its code in the file text, NO_SOURCE if none
    sources: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    file: InPlaceFile | None = field(default=None, repr=False)
    first: bool = False  # the first cue renders the whole file, the others nothing

    holds_marks = False  # a new character would move every code after it: restored marks are not written

    def render(self, fmt: str, newline: str) -> str:
        if not self.first or self.file is None:
            return ""
        return self.file.render()


@dataclass(eq=False)
class InPlaceFile:
    """The file's text and its cues: rendered whole, with the codes of changed characters rewritten."""

    text: str
    what: str  # what a cue is called in messages: "SCC caption", "STL subtitle"
    encode: Encoder
    cues: list[InPlaceCue] = field(default_factory=list)

    def add(self, start_ms: int, end_ms: int, text: str, sources: Sequence[tuple[int, int]],
            identifier: str | None = None) -> InPlaceCue:
        cue = InPlaceCue(identifier, start_ms, end_ms, "", text, sources=tuple(sources), file=self,
                         first=not self.cues)
        cue.raw = RawCue("", cue.head_key(), text, (), "")
        self.cues.append(cue)
        return cue

    def render(self) -> str:
        edits: list[tuple[int, int, str]] = []
        for number, cue in enumerate(self.cues, 1):
            raw = cue.raw
            assert raw is not None
            if cue.text == raw.text:
                continue
            if len(cue.text) != len(raw.text) or any(
                    (a == "\n") != (b == "\n") for a, b in zip(cue.text, raw.text)):
                raise SubtitleError(f"{self.what} {number} was edited beyond its letters ({cue.text!r}); "
                                    "this format can only be saved with characters changed one for one, "
                                    "line breaks kept")
            for old, new, (at, length) in zip(raw.text, cue.text, cue.sources):
                if old == new:
                    continue
                if at < 0:
                    raise SubtitleError(f"{self.what} {number}: {old!r} has no code of its own in the file "
                                        f"(a code pair, or a space a control code shows), so it cannot become {new!r}")
                try:
                    code = self.encode(new, self.text[at:at + length])
                except SubtitleError as exc:
                    raise SubtitleError(f"{self.what} {number}: {exc.reason}") from None
                assert len(code) == length
                edits.append((at, length, code))
        if not edits:
            return self.text
        edits.sort()
        parts, pos = [], 0
        for at, length, code in edits:
            parts.append(self.text[pos:at])
            parts.append(code)
            pos = at + length
        parts.append(self.text[pos:])
        return "".join(parts)


def kept_letters(cues: Sequence[Cue]) -> frozenset[str]:
    """Letters whose other case the file cannot take in place of their code (no code of their own, or none of
    the same length for the other case): the document keeps their words as written (``Document.uncertain``)."""
    out: set[str] = set()
    fine: set[tuple[str, str]] = set()  # (letter, code) pairs seen to take their other case
    for cue in cues:
        if not isinstance(cue, InPlaceCue) or cue.file is None:
            continue
        for char, (at, length) in zip(cue.text, cue.sources):
            if char.lower() == char.upper() or char in out:
                continue
            if at < 0:
                out.add(char)
                continue
            old = cue.file.text[at:at + length]
            if (char, old) in fine:
                continue
            if all(_writes(cue.file.encode, form, old) for form in {char.lower(), char.upper()} - {char}):
                fine.add((char, old))
            else:
                out.add(char)
    return frozenset(out)


def _writes(encode: Encoder, char: str, old: str) -> bool:
    try:
        return len(char) == 1 and len(encode(char, old)) == len(old)
    except SubtitleError:
        return False


__all__ = ["Encoder", "InPlaceCue", "InPlaceFile", "NO_SOURCE", "kept_letters"]
