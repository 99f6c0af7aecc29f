"""Lay a cue's text out as it is written: lines as in the file, runs of plain text, markup and words.

The layout is the single source of what the cue view paints.  Each line of
the cue becomes a row of ``Run``s whose texts, concatenated, are exactly
that line: nothing is padded, inserted or dropped, so spacing and
punctuation look as in the subtitle file (``Mr. Brown``, not ``Mr . Brown``).
A run is placed where the previous one ends (its x is the sum of the
advances before it), which is also where a single drawText of the whole
line would put it.

Only what can be seen is laid out, so a pathological cue (a 50 MB line)
costs no more than a screenful: at most ``MAX_LINES`` lines, each up to the
visible width and at most ``MAX_LINE_CHARS`` characters.  A cut line ends
with an ``elision`` run ("…"), the only run whose text is not cue text.
Markup is found per line with ``MARKUP_RE`` (tags never span a line), and the
words of a line by bisection on their offsets, so the cost does not grow
with the length of the cue.

In a file in the word-level layout of speech recognition (``word_level``:
YouTube's ``<00:00:01.240><c> word</c>``), the timing tags and the ``<c>``
spans around them are laid out as markup runs with no text and no width:
the cue reads as spoken, and the tags stay in the cue text (Word Details
shows a word's time).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from operator import attrgetter
from typing import Iterable, Sequence

from PySide6.QtGui import QFont, QFontMetricsF

from subcase.review import ReviewWord
from subcase.subtitles.markup import MARKUP_RE

MAX_LINES = 12          # lines shown per cue in the list; the rest is elided
MAX_LINE_CHARS = 1000   # characters laid out per line, whatever the width
ELLIPSIS = "\u2026"

PLAIN, MARKUP, WORD, ELISION = "plain", "markup", "word", "elision"

_start_of = attrgetter("start")

# What the word-level layout hides: inline timing tags, and the class spans YouTube wraps its words in.
TIMING_TAG_RE = re.compile(r"<(?:[0-9]+:)?[0-9]{2}:[0-9]{2}\.[0-9]{3}>")
_HIDDEN_RE = re.compile(r"<(?:[0-9]+:)?[0-9]{2}:[0-9]{2}\.[0-9]{3}>|</?c(?:\.[^<>\s]*)?>", re.IGNORECASE)


def word_level(texts: Iterable[str]) -> bool:
    """Whether cue texts are in the word-level layout: some cue times its words with inline tags (looked for in
    each cue's first ``MAX_LINE_CHARS`` characters, where that layout has them: a 50 MB cue costs no scan)."""
    return any(TIMING_TAG_RE.search(t, 0, MAX_LINE_CHARS) is not None for t in texts)


@dataclass(frozen=True, slots=True)
class Run:
    kind: str            # PLAIN | MARKUP | WORD | ELISION
    text: str
    start: int           # offsets into the cue text (start == end for an elision)
    end: int
    slot: int | None     # the review slot of a WORD run
    x: float             # left edge, from the text origin of the line
    width: float


@dataclass(frozen=True, slots=True)
class Line:
    start: int           # offsets of the line in the cue text, without its newline
    end: int
    runs: tuple[Run, ...]
    cut: bool            # the line goes on past what was laid out


@dataclass(frozen=True, slots=True)
class CueLayout:
    text: str            # the cue text laid out (identity: a changed cue gives a new string)
    lines: tuple[Line, ...]
    more_lines: bool     # the cue has lines after the last one shown


def line_spans(text: str, max_lines: int = MAX_LINES) -> tuple[list[tuple[int, int]], bool]:
    """(start, end) of the first ``max_lines`` lines, and whether more follow.

    Costs one memchr-speed scan to the last shown newline at worst, never a
    split or copy of the whole text.
    """
    spans: list[tuple[int, int]] = []
    pos, n = 0, len(text)
    while len(spans) < max_lines:
        nl = text.find("\n", pos)
        if nl < 0:
            spans.append((pos, n))
            return spans, False
        spans.append((pos, nl))
        pos = nl + 1
    return spans, True


def count_lines(text: str, max_lines: int = MAX_LINES) -> int:
    """How many lines the list shows for ``text`` (at most ``max_lines``)."""
    spans, _ = line_spans(text, max_lines)
    return len(spans)


def _segments(text: str, a: int, b: int, words: Sequence[ReviewWord]) -> list[tuple[str, int, int, int | None]]:
    """Cover text[a:b] with (kind, start, end, slot) in order: markup, words, plain text between."""
    marks = [(m.start(), m.end()) for m in MARKUP_RE.finditer(text, a, b)]
    i = bisect_left(words, a, key=_start_of) if words else 0
    out: list[tuple[str, int, int, int | None]] = []
    pos, k = a, 0
    while pos < b:
        next_mark = marks[k] if k < len(marks) else None
        next_word = words[i] if i < len(words) and words[i].start < b else None
        # the nearest thing that starts at or after pos
        if next_word is not None and next_word.start < pos:  # cannot overlap; skip defensively
            i += 1
            continue
        ms = next_mark[0] if next_mark else b
        ws = next_word.start if next_word else b
        nxt = min(ms, ws)
        if nxt > pos:
            out.append((PLAIN, pos, nxt, None))
            pos = nxt
            continue
        if next_mark is not None and ms == pos:
            end = min(next_mark[1], b)
            out.append((MARKUP, pos, end, None))
            pos, k = end, k + 1
        else:
            assert next_word is not None
            end = min(max(next_word.end, pos + 1), b)
            out.append((WORD, pos, end, i))
            pos, i = end, i + 1
    return out


def _fitting(fm: QFontMetricsF, piece: str, room: float) -> int:
    """How many leading characters of ``piece`` fit in ``room`` (plus one, which the cell clips)."""
    lo, hi = 0, len(piece)
    while lo < hi:  # the largest n with advance(piece[:n]) <= room
        mid = (lo + hi + 1) // 2
        if fm.horizontalAdvance(piece[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    return min(len(piece), lo + 1)


class Advances:
    """Advance widths of strings in one font, remembered.

    A film repeats its words and the spaces between them, and every call
    into Qt from a paint waits for the GIL while a worker thread cases; so
    the first paint of a screenful asks Qt once per distinct string, not
    once per run.  Bounded: it starts over past ``LIMIT`` strings.
    """

    LIMIT = 50_000
    _by_font: dict[str, Advances] = {}

    def __init__(self, font: QFont):
        self.fm = QFontMetricsF(font)
        self.widths: dict[str, float] = {}

    @classmethod
    def of(cls, font: QFont) -> Advances:
        key = font.key()
        adv = cls._by_font.get(key)
        if adv is None:
            adv = cls._by_font[key] = cls(font)
        return adv

    def __call__(self, piece: str) -> float:
        w = self.widths.get(piece)
        if w is None:
            w = self.fm.horizontalAdvance(piece)
            if len(piece) <= 64:  # long runs seldom repeat
                if len(self.widths) >= self.LIMIT:
                    self.widths.clear()
                self.widths[piece] = w
        return w


def layout_cue(text: str, words: Sequence[ReviewWord], font: QFont, max_width: float,
               max_lines: int = MAX_LINES, max_chars: int = MAX_LINE_CHARS, hide_timing: bool = False) -> CueLayout:
    """Runs for each shown line of ``text``; ``words`` are the cue's review words (sorted by offset).
    ``hide_timing``: timing tags and their ``<c>`` spans take no room and show nothing (``word_level``)."""
    advance = Advances.of(font)
    fm = advance.fm
    ellipsis_w = advance(ELLIPSIS)
    spans, more = line_spans(text, max_lines)
    lines: list[Line] = []
    for a, b in spans:
        limit = min(b, a + max_chars)
        runs: list[Run] = []
        x = 0.0
        cut = limit < b
        for kind, s, e, slot in _segments(text, a, limit, words):
            if x > max_width:  # the rest of the line is out of sight
                cut = True
                break
            piece = text[s:e]
            if hide_timing and kind == MARKUP and _HIDDEN_RE.fullmatch(piece):
                runs.append(Run(kind, "", s, e, slot, x, 0.0))
                continue
            w = advance(piece)
            if x + w > max_width and kind != WORD:
                # keep what shows of a long run (a word stays whole: it can be clicked)
                keep = _fitting(fm, piece, max_width - x)
                if keep < len(piece):
                    piece, e = piece[:keep], s + keep
                    w = fm.horizontalAdvance(piece)
                    cut = True
                    runs.append(Run(kind, piece, s, e, slot, x, w))
                    x += w
                    break
            runs.append(Run(kind, piece, s, e, slot, x, w))
            x += w
        if cut:
            runs.append(Run(ELISION, ELLIPSIS, runs[-1].end if runs else a, runs[-1].end if runs else a,
                            None, x, ellipsis_w))
        lines.append(Line(a, b, tuple(runs), cut))
    if more and lines and not lines[-1].cut:  # say that lines follow the last one shown
        last = lines[-1]
        x = last.runs[-1].x + last.runs[-1].width if last.runs else 0.0
        lines[-1] = Line(last.start, last.end, last.runs + (Run(ELISION, " " + ELLIPSIS, last.end, last.end, None, x,
                                                                advance(" " + ELLIPSIS)),), True)
    return CueLayout(text, tuple(lines), more)
