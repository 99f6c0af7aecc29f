"""What an edit-log record says about where a word stood, so that a profile can be
rebuilt from the logs alone.

A decision is evidence about the word *in its context*: its neighbours in the
cue, whether it starts a sentence (a positional capital says nothing about
the word) and whether it is part of a sound cue or a speaker label (house
style, not a name).  ``record_context`` reads that from the document's structure
(review/structure.py), which the session computes once per version of its words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from subcase.subtitles import Document

from .editlog import WordContext
from .state import Pos, ReviewState, ReviewWord

if TYPE_CHECKING:
    from .structure import Structure

WIDTH = 2  # neighbours kept on each side


def separator(text: str) -> str:
    """What stands between two words, spaces left out and a line break written "/": casing after
    "web accessibility:" on the same line is not casing after it at a line end."""
    return "".join(ch for ch in text if not ch.isspace() or ch == "\n").replace("\n", "/").replace("|", "")


def separators(text: str, words, s: int) -> list[str]:
    """The separators before and after the ``s``-th of ``words`` (anything with start, end) in ``text``."""
    w = words[s]
    left = separator(text[words[s - 1].end:w.start]) if s > 0 else ""
    right = separator(text[w.end:words[s + 1].start]) if s + 1 < len(words) else ""
    return [left, right]


def _pos(state: ReviewState, w: ReviewWord) -> Pos | None:
    if not 0 <= w.cue_index < len(state.cues):
        return None
    for s, x in enumerate(state.cues[w.cue_index]):
        if x.word_index == w.word_index:
            return (w.cue_index, s)
    return None


def record_context(doc: Document, state: ReviewState, structure: Structure, w: ReviewWord) -> WordContext | None:
    """Where the word stands (``editlog.WordContext``), or None."""
    pos = _pos(state, w)
    if pos is None:
        return None
    c, s = pos
    words = state.cues[c]
    left = [words[k].form for k in range(max(0, s - WIDTH), s)]
    right = [words[k].form for k in range(s + 1, min(len(words), s + 1 + WIDTH))]
    initial = structure.initial.get(pos, False)
    cat = structure.categories.get(pos)
    return WordContext(left=left, right=right, sep=separators(doc.cues[c].text, words, s), initial=bool(initial),
                       category=cat.value if cat is not None else None)
