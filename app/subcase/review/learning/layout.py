"""Where each reviewable word of a file sits, as the learning rules read it.

A ``Layout`` is the document's one ``Structure`` (review/structure.py: sentence starts, line starts,
sound-cue and speaker-label words, a word index by lowercased form, quotations) seen from one review
state, plus the category words cased as plain sentences, asked for at most once.  It belongs to the
state it was read for (``is_for``) and is read again after a text edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Callable, Mapping

from subcase.casing.housestyle import Category
from subcase.subtitles import Document

from ..state import Pos, ReviewState, ReviewWord
from ..structure import DocumentStructure, Structure, quoted_spans

# The category words cased as plain sentences, with P(lower) (housestyle.plain_casing).
PlainCasing = Callable[[list, dict], dict[Pos, tuple[str, float]]]


@dataclass(eq=False)
class Layout:
    """The file's structure for one review state (read-only once made, but for the plain casing,
    asked for at most once)."""

    state: ReviewState = field(repr=False)
    structure: Structure
    _plain: dict[Pos, tuple[str, float]] | None = field(default=None, repr=False)

    @classmethod
    def read(cls, doc: Document, state: ReviewState, owner: DocumentStructure | None = None) -> Layout:
        """The layout of ``state``, from ``owner``'s structure of the document (computed again only if
        the words changed), or from a structure of its own without an owner."""
        return cls(state, owner.of(doc, state) if owner is not None else Structure.compute(doc, state))

    @property
    def initial(self) -> Mapping[Pos, bool]:
        return self.structure.initial

    @property
    def line_starts(self) -> AbstractSet[Pos]:
        return self.structure.line_starts

    @property
    def punctuated(self) -> bool:
        return self.structure.punctuated

    @property
    def cats(self) -> Mapping[Pos, Category]:
        return self.structure.categories

    @property
    def index(self) -> Mapping[str, tuple[Pos, ...]]:
        return self.structure.index

    @property
    def quoted(self) -> Mapping[Pos, list[Pos]]:
        return self.structure.quoted

    def is_for(self, state: ReviewState) -> bool:
        """Whether this is the layout of ``state`` (the object itself, not one equal to it)."""
        return self.state is state

    def starts_sentence(self, pos: Pos) -> bool:
        return self.initial.get(pos, False)

    def plain(self, casing: PlainCasing | None) -> dict[Pos, tuple[str, float]] | None:
        """The category words cased as plain sentences by ``casing``, computed on the first call
        (it runs the model); None without a casing."""
        if self._plain is None and casing is not None:
            self._plain = casing(self.state.cues, dict(self.cats))
        return self._plain

    def facts(self) -> tuple:
        """What the layout says, for comparing two of them."""
        return (dict(self.initial), self.line_starts, self.punctuated, dict(self.cats),
                {k: list(v) for k, v in self.index.items()}, dict(self.quoted))


def pos_of(state: ReviewState, w: ReviewWord) -> Pos | None:
    """Where a decided word sits in ``state.cues`` now (cue, slot); None once its cue was re-read."""
    for s, x in enumerate(state.cues[w.cue_index]):
        if x.word_index == w.word_index:
            return (w.cue_index, s)
    return None


__all__ = ["Layout", "PlainCasing", "pos_of", "quoted_spans"]
