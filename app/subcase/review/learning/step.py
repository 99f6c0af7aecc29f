"""One learning step: the decisions of one action, what they teach and what they change.

The rules (``learner``), the house styles (``styles``), the raises (``raising``) and the
re-casings (``applying``) read and write the same few things while a step runs: the learner's
settings, the review state and its layout, the knowledge being drafted, and the changes and
decided words so far.  A ``Step`` holds them, so each of those functions names what it reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

from subcase.casing.tags import TagWriter

from ..changes import Change
from ..state import Pos, ReviewState
from .knowledge import Context, Draft
from .layout import Layout, PlainCasing

IsRare = Callable[[str], bool]


class Settings(Protocol):
    """How the learner learns (``learner.Learner``'s fields; each is explained there)."""

    @property
    def write_tag(self) -> TagWriter: ...  # (callables are read as properties: a dataclass's are read-only)

    @property
    def is_rare(self) -> IsRare: ...

    width: int
    raise_disagreeing: str
    raise_title_gaps: int
    raise_sure_phrases: bool
    raise_after_title: bool
    raise_quoted_titles: bool
    check_styles: bool
    settle_styled: bool
    settle_acronyms: bool
    settle_titles: bool
    plain: PlainCasing | None
    word_evidence: int
    thin_rules_raise: bool


@dataclass
class Step:
    settings: Settings
    state: ReviewState
    layout: Layout
    known: Draft
    changes: dict[Pos, Change] = field(default_factory=dict)
    decided: set[Pos] = field(default_factory=set)

    def initial(self, pos: Pos) -> bool:
        return self.layout.starts_sentence(pos)

    def context(self, pos: Pos) -> Context:
        return context(self.state, pos, self.settings.width)

    def neighbours(self, pos: Pos) -> tuple[str | None, str | None]:
        return neighbours(self.state, pos)


def context(state: ReviewState, pos: Pos, width: int) -> Context:
    """The word with ``width`` neighbours on each side in its cue, lowercased (None past an edge)."""
    c, s = pos
    words = state.cues[c]
    return tuple(words[k].form.lower() if 0 <= k < len(words) else None for k in range(s - width, s + width + 1))


def neighbours(state: ReviewState, pos: Pos) -> tuple[str | None, str | None]:
    """The lowercased words on each side in the cue (None past an edge)."""
    c, s = pos
    words = state.cues[c]
    return (words[s - 1].form.lower() if s > 0 else None,
            words[s + 1].form.lower() if s + 1 < len(words) else None)


__all__ = ["IsRare", "Settings", "Step", "context", "neighbours"]
