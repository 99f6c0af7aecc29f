"""Where each reviewable word of a file sits, as the learning rules read it.

A ``Layout`` is derived from the document and one review state: sentence starts, line starts,
sound-cue and speaker-label words, a word index by lowercased form and quotations.  It belongs
to the state it was read from (``is_for``), is cheap enough to read again after a text edit,
and the flag reasons and the edit log read it instead of computing the same again
(``Learner.layout_of``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from subcase.casing.housestyle import Category, categories_of
from subcase.subtitles import Document

from ..positions import has_sentence_punctuation, line_starts, sentence_initial
from ..state import Pos, ReviewState, ReviewWord

# English quotation marks: a straight one opens or closes, a curly one says which.
QUOTE_MARKS = {'"': None, "\u201c": True, "\u201d": False}

# The category words cased as plain sentences, with P(lower) (housestyle.plain_casing).
PlainCasing = Callable[[list, dict], dict[Pos, tuple[str, float]]]


@dataclass(eq=False)
class Layout:
    """The file's structure for one review state (read-only once made, but for the plain casing,
    asked for at most once)."""

    state: ReviewState = field(repr=False)
    initial: Mapping[Pos, bool]
    line_starts: frozenset[Pos]
    punctuated: bool
    cats: dict[Pos, Category]
    index: Mapping[str, list[Pos]]  # lowercased form -> its places, in reading order
    quoted: Mapping[Pos, list[Pos]]  # a word inside quotation marks -> its quotation's words
    _plain: dict[Pos, tuple[str, float]] | None = field(default=None, repr=False)

    @classmethod
    def read(cls, doc: Document, state: ReviewState) -> Layout:
        index: dict[str, list[Pos]] = {}
        for pos in state.positions():
            index.setdefault(state.word(pos).form.lower(), []).append(pos)
        return cls(state, sentence_initial(doc, state), frozenset(line_starts(doc, state)),
                   has_sentence_punctuation(doc), categories_of(doc, state.cues), index, quoted_spans(doc, state))

    def is_for(self, state: ReviewState) -> bool:
        """Whether this is the layout of ``state`` (the object itself, not one equal to it)."""
        return self.state is state

    def starts_sentence(self, pos: Pos) -> bool:
        return self.initial.get(pos, False)

    def plain(self, casing: PlainCasing | None) -> dict[Pos, tuple[str, float]] | None:
        """The category words cased as plain sentences by ``casing``, computed on the first call
        (it runs the model); None without a casing."""
        if self._plain is None and casing is not None:
            self._plain = casing(self.state.cues, self.cats)
        return self._plain

    def facts(self) -> tuple:
        """What the layout says, for comparing two of them."""
        return (dict(self.initial), self.line_starts, self.punctuated, dict(self.cats),
                {k: list(v) for k, v in self.index.items()}, dict(self.quoted))


def quoted_spans(doc: Document, state: ReviewState) -> dict[Pos, list[Pos]]:
    """Each word inside quotation marks, with the words of its quotation (one list shared by them
    all); a quotation ends with its cue, whether or not it is closed there."""
    out: dict[Pos, list[Pos]] = {}
    for c, cue in enumerate(doc.cues):
        quotation: list[Pos] | None = None  # the words of the open quotation
        slots = {w.start: s for s, w in enumerate(state.cues[c])}
        for t in cue.tokens():
            if t.text in QUOTE_MARKS:
                opens = QUOTE_MARKS[t.text]
                quotation = [] if (quotation is None if opens is None else opens) else None
            elif quotation is not None and t.is_word and t.start in slots:
                pos = (c, slots[t.start])
                quotation.append(pos)
                out[pos] = quotation
    return out


def pos_of(state: ReviewState, w: ReviewWord) -> Pos | None:
    """Where a decided word sits in ``state.cues`` now (cue, slot); None once its cue was re-read."""
    for s, x in enumerate(state.cues[w.cue_index]):
        if x.word_index == w.word_index:
            return (w.cue_index, s)
    return None


__all__ = ["Layout", "PlainCasing", "pos_of", "quoted_spans"]
