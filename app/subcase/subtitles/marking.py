"""Punctuation marks written into a cue's text, and taken out again exactly.

Restored punctuation must leave every other byte of the file as it was, as
restored casing does: a mark is inserted, or an existing mark replaced, and
nothing else moves.  A mark that ends a word is written right after the word's
last letter, so it lands inside any closing markup (``<i>yes</i>`` becomes
``<i>yes.</i>``, ``{\\i1}yes{\\i0}`` becomes ``{\\i1}yes.{\\i0}``, a caption's
``<c> word</c>`` becomes ``<c> word.</c>``) and before closing quotes and
brackets; an opening mark (Spanish ``¿`` and ``¡``) right before the word's
first letter, inside any opening markup.  A mark written after a no-break space
(French ``mot\u00a0?``) is the word's mark as much as one written tight: the
space is written and taken out with it.

Places are offsets in the cue text as the words' ``Token`` offsets give them
(markup included), the offsets ``Document.recase`` takes: at a word's end there
is one place right after its letters, where in the plain text the same offset
could be before or after a closing tag.

A place that is not a word's edge is refused (``MarkError``): inside a token
("3.5", "U.S", "Jean-Luc", a word broken by an inline tag), where a mark would
change what the token is, and a word that already ends (or opens) with a mark,
where a second one would be written doubled.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Iterable, Iterator, Sequence

from . import markup
from .errors import MarkError
from .words import Token

# What may be written after a word: the marks the model predicts and the signs a subtitle uses for them
# (an existing ";" or "..." is given back exactly when a change is undone).
CLOSING = frozenset(",.?!;:\u2026")
OPENING = frozenset("\u00bf\u00a1")  # ¿ ¡
# French typography writes a no-break space (or a narrow one) between a word and its ? ! : ;  -- part of the
# word's mark, not a space between words: no line may break there, and "mot\u00a0?" is the word's question mark
NO_BREAK = frozenset("\u00a0\u202f")
_WORD_CHAR = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class MarkEdit:
    """Marks written into one cue: each change is ``(offset, old, new)`` with the offset in the cue text
    before the edit, in text order, none overlapping; ``old`` and ``new`` are runs of mark characters
    (either may be empty).  ``inverse()`` is the edit that takes it back."""

    cue_index: int
    changes: tuple[tuple[int, str, str], ...]
    # the changes' offsets in order and the running sum of their length changes, so that ``shift_span`` is a
    # binary search: a one-cue film has some 100k marks and as many words to move
    _at: list[int] = field(init=False, repr=False, compare=False)
    _shift: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ordered = sorted(self.changes)
        object.__setattr__(self, "_at", [at for at, _, _ in ordered])
        object.__setattr__(self, "_shift", [0, *accumulate(len(new) - len(old) for _, old, new in ordered)])

    def inverse(self) -> MarkEdit:
        out, shift = [], 0
        for start, old, new in self.changes:
            out.append((start + shift, new, old))
            shift += len(new) - len(old)
        return MarkEdit(self.cue_index, tuple(out))

    def shift_span(self, start: int, end: int) -> tuple[int, int]:
        """Where a word at ``start``-``end`` in the text before the edit is after it.  A mark written at a
        word's first letter (an opening mark) moves the word; one written at its end does not."""
        return (start + self._shift[bisect_right(self._at, start)],
                end + self._shift[bisect_left(self._at, end)])


class Places:
    """Where marks may go in one cue text: its markup and its words' edges, found once.  Each question
    (``check``, ``opening_mark``) then reads only the characters around its offset, up to the nearest white
    space or word, so checking every mark of a cue costs time linear in the cue, however long its lines
    (the whole line at every mark made one 5,000-word line take 34 s)."""

    __slots__ = ("text", "_spans", "_starts", "_word_starts", "_word_ends")

    def __init__(self, text: str, tokens: Sequence[Token]):
        self.text = text
        self._spans = markup.split(text)
        self._starts = [span.start for span in self._spans]
        self._word_starts = {t.start for t in tokens if t.is_word}
        self._word_ends = {t.end for t in tokens if t.is_word}

    def after(self, offset: int) -> Iterator[str]:
        """The visible characters of ``offset``'s line from it on, tags skipped, entities and ASS hard
        breaks read as what they show, then the line break that ends the run as white space does."""
        text, spans = self.text, self._spans
        for k in range(max(bisect_right(self._starts, offset) - 1, 0), len(spans)):
            span = spans[k]
            if span.is_markup:
                if span.start >= offset:  # markup that starts before the offset is read before it
                    yield from markup.plain(span.text)
                continue
            for pos in range(max(span.start, offset), span.end):
                if text[pos] == "\n":
                    yield "\n"
                    return
                yield text[pos]
        yield "\n"

    def before(self, offset: int) -> Iterator[str]:
        """The visible characters of ``offset``'s line before it, nearest first, as ``after`` reads them."""
        text, spans = self.text, self._spans
        for k in range(bisect_right(self._starts, offset - 1) - 1, -1, -1):
            span = spans[k]
            if span.is_markup:
                if span.start < offset:
                    yield from reversed(markup.plain(span.text))
                continue
            for pos in range(min(span.end, offset) - 1, span.start - 1, -1):
                if text[pos] == "\n":
                    yield "\n"
                    return
                yield text[pos]
        yield "\n"

    def check(self, cue_index: int, offset: int, mark: str, allow_marked: bool = False) -> None:
        """Raise MarkError unless ``mark`` may be written at ``offset`` of the cue text."""
        opening = bool(mark) and all(c in OPENING for c in mark)
        body = mark.lstrip("".join(NO_BREAK)) if not opening else mark
        if mark and not opening and not (body and all(c in CLOSING for c in body)):
            raise MarkError(f"cue {cue_index + 1}: {mark!r} is not a punctuation mark")
        # an opening mark is read before the word's start, a closing one after its end: the same checks, mirrored
        if opening:
            at_edge, own = offset in self._word_starts, OPENING
            not_edge = f"an opening mark goes right before a word; offset {offset} is not the start of one"
            marked = f"the word at offset {offset} already opens with a mark"
        else:
            at_edge, own = offset in self._word_ends, CLOSING
            not_edge = f"a mark goes right after a word; offset {offset} is not the end of one"
            marked = f"the word ending at offset {offset} already has a mark"
        if not at_edge:
            raise MarkError(f"cue {cue_index + 1}: {not_edge}")
        side = _head(self.before(offset) if opening else self.after(offset))
        if not opening:
            side = _past_no_break(side)
        run, glued = _run(side)
        if glued:
            raise MarkError(f"cue {cue_index + 1}: offset {offset} is inside a token ({run!r} joins two words)")
        if not allow_marked and any(c in own for c in run):
            raise MarkError(f"cue {cue_index + 1}: {marked}" + ("" if opening else f" ({run!r})"))

    def opening_mark(self, word_start: int) -> tuple[int, str]:
        """``opening_mark`` of this text."""
        text, spans = self.text, self._spans
        found: tuple[int, str] = (word_start, "")
        for k in range(bisect_right(self._starts, word_start - 1) - 1, -1, -1):
            span = spans[k]
            if span.is_markup:
                continue
            for pos in range(min(span.end, word_start) - 1, span.start - 1, -1):
                ch = text[pos]
                if ch == "\n":
                    return found
                if ch in OPENING:
                    found = (pos, ch + found[1] if found[1] else ch)
                elif found[1] or ch.isspace() or _WORD_CHAR.match(ch):
                    return found
        return found


def _head(chars: Iterator[str]) -> list[str]:
    """The characters ``_past_no_break`` and ``_run`` read: any no-break spaces, then up to and with the
    first white space or word character (the run's end; every line's characters end with a line break)."""
    out: list[str] = []
    leading = True
    for ch in chars:
        out.append(ch)
        if leading and ch in NO_BREAK:
            continue
        leading = False
        if ch.isspace() or _WORD_CHAR.match(ch):
            break
    return out


def _run(chars: Sequence[str]) -> tuple[str, bool]:
    """The punctuation at the start of ``chars`` up to white space, and whether a word character is glued
    to it (then the place is inside a token)."""
    run: list[str] = []
    for ch in chars:
        if ch.isspace():
            return "".join(run), False
        if _WORD_CHAR.match(ch):
            return "".join(run), True
        run.append(ch)
    return "".join(run), False


def _past_no_break(after: list[str]) -> list[str]:
    """The characters after a word's end from its mark on: past a no-break space when a mark follows it
    ("mot\u00a0?"), so that the spaced mark counts as the word's own."""
    k = 0
    while k < len(after) and after[k] in NO_BREAK:
        k += 1
    return after[k:] if k and k < len(after) and after[k] in CLOSING else after


def opening_mark(text: str, word_start: int) -> tuple[int, str]:
    """Where the opening marks right before the word starting at ``word_start`` are, and their characters
    ("¿" in "¿qué", in ``¿<i>qué`` and ``"¿qué`` too), or ``(word_start, "")`` when the word has none.
    Reads the whole text; ``Cue.mark_places`` answers many such questions about one cue for one reading."""
    return Places(text, ()).opening_mark(word_start)


def check_place(text: str, tokens: Sequence[Token], cue_index: int, offset: int, mark: str,
                allow_marked: bool = False) -> None:
    """Raise MarkError unless ``mark`` may be written at ``offset`` of the cue text (``Places.check``)."""
    Places(text, tokens).check(cue_index, offset, mark, allow_marked)


def insertions(places: Places, cue_index: int, inserts: Iterable[tuple[int, str]]) -> MarkEdit:
    """The edit that writes each ``(offset, mark)`` at its place in ``places``' text, checked (``Places.check``)."""
    todo = sorted(inserts)
    for k, (offset, mark) in enumerate(todo):
        if not mark:
            raise MarkError(f"cue {cue_index + 1}: an empty mark at offset {offset}")
        if k and todo[k - 1][0] == offset:
            raise MarkError(f"cue {cue_index + 1}: two marks at offset {offset}")
        places.check(cue_index, offset, mark)
    return MarkEdit(cue_index, tuple((offset, "", mark) for offset, mark in todo))


def existing_mark(text: str, word_end: int) -> tuple[int, str]:
    """Where the mark after the word ending at ``word_end`` is, and its characters: the first run of mark
    characters in the punctuation that follows the word ("yes.", ``<i>yes</i>.``, "yes?!"; with the no-break
    space before it when one is written right after the word, "mot\u00a0?"), or
    ``(word_end, "")`` when the word has none."""
    lo = word_end
    hi = text.find("\n", word_end)
    hi = len(text) if hi < 0 else hi
    pos = lo
    while pos < hi:
        m = markup.MARKUP_RE.match(text, pos)
        if m is not None and not m.group().startswith("&"):
            pos = m.end()
            continue
        ch = text[pos]
        if ch in NO_BREAK and pos == word_end:
            end = pos
            while end < hi and text[end] in NO_BREAK:
                end += 1
            if end < hi and text[end] in CLOSING:  # "mot\u00a0?": the space goes with the mark
                while end < hi and text[end] in CLOSING:
                    end += 1
                return pos, text[pos:end]
        if ch.isspace() or _WORD_CHAR.match(ch):
            break
        if ch in CLOSING:
            end = pos
            while end < hi and text[end] in CLOSING:
                end += 1
            return pos, text[pos:end]
        pos = m.end() if m is not None else pos + 1
    return word_end, ""


def apply(text: str, edit: MarkEdit) -> str:
    """``text`` with ``edit`` written into it; ValueError if the text at a change is not its ``old``, or a
    change writes anything but mark characters."""
    parts = []
    pos = 0
    for start, old, new in edit.changes:
        if start < pos or text[start:start + len(old)] != old:
            raise ValueError(f"cue {edit.cue_index + 1}: {old!r} is not at offset {start}")
        if not all(c in CLOSING or c in OPENING or c in NO_BREAK for c in old + new):
            raise ValueError(f"cue {edit.cue_index + 1}: {old!r} -> {new!r} is not a change of marks")
        parts.append(text[pos:start])
        parts.append(new)
        pos = start + len(old)
    parts.append(text[pos:])
    return "".join(parts)
