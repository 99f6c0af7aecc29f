"""What an edit-log record says about where a word stood, so that a profile can be
rebuilt from the logs alone.

A decision is evidence about the word *in its context*: its neighbours in the
cue, whether it starts a sentence (a positional capital says nothing about
the word) and whether it is part of a sound cue or a speaker label (house
style, not a name).  ``record_context`` reads that from the learner when the
session has one (it has computed it already) and from the document otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from subcase.casing.housestyle import categories_of
from subcase.subtitles import Document

from .state import Pos, ReviewState, ReviewWord

if TYPE_CHECKING:
    from .learning import Learner

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


_cache: dict = {}


def _structure(doc: Document, state: ReviewState) -> tuple[dict, dict]:
    """Sentence starts and categories of the file, computed once per version of its text (a session
    without a learner logs many records; each would otherwise read the whole file again)."""
    from .learning import sentence_initial

    texts = tuple(cue.text for cue in doc.cues)
    key = (id(doc), id(state))
    hit = _cache.get("key") == key and _cache.get("texts") == texts
    if not hit:
        _cache.clear()
        _cache.update(key=key, texts=texts, starts=sentence_initial(doc, state), cats=categories_of(doc, state.cues))
    return _cache["starts"], _cache["cats"]


def record_context(doc: Document, state: ReviewState, learner: Learner | None, w: ReviewWord) -> dict | None:
    """``{"left": [...], "right": [...], "sep": [before, after], "initial": bool, "category": str | None}``
    for the word, or None."""
    pos = _pos(state, w)
    if pos is None:
        return None
    c, s = pos
    words = state.cues[c]
    left = [words[k].form for k in range(max(0, s - WIDTH), s)]
    right = [words[k].form for k in range(s + 1, min(len(words), s + 1 + WIDTH))]
    layout = learner.layout_of(state) if learner is not None else None
    if layout is not None:
        initial = layout.starts_sentence(pos)
        cat = layout.cats.get(pos)
    else:
        starts, cats = _structure(doc, state)
        initial = starts.get(pos, False)
        cat = cats.get(pos)
    return {"left": left, "right": right, "sep": separators(doc.cues[c].text, words, s), "initial": bool(initial),
            "category": cat.value if cat is not None else None}
