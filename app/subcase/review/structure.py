"""Where each reviewable word of a document sits: one structure, computed once per version of its words.

Sentence starts (the casing's one rule, ``positions.sentence_initial``), line starts, whether the file
marks sentence ends at all, the sound-cue and speaker-label words (``housestyle.categories_of``), the
silences that make a cue's first word a likelier sentence start, where each word occurs and which words
are quoted.  The flag reasons, the learner (``learning.Layout``) and the edit log's record context read it; none of it depends on how the words are cased, so
it stays valid through every accept and tag change and is computed again only when the words
themselves change (a text edit, a mode change, a save into another format).

``DocumentStructure`` is its owner: the session holds one (``ReviewSession.structure``) and hands it to
the flag context, and it recognises the document's version by value (its text and its words' layout),
never by the identity of the objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, count
from operator import attrgetter, is_not

from subcase.casing.housestyle import Category, categories_of
from subcase.subtitles import Document

from .positions import has_sentence_punctuation, line_starts, sentence_initial
from .state import Pos, ReviewState


@dataclass(frozen=True)
class Structure:
    initial: dict[Pos, bool]           # the word starts a sentence
    line_starts: frozenset[Pos]        # the word opens a line of its cue
    punctuated: bool                   # the file marks sentence ends
    categories: dict[Pos, Category]    # sound-cue and speaker-label words
    silences: dict[int, float]         # cue -> seconds of silence before it, where that makes its first
                                       # word a likelier sentence start (casing/pauses.py; no punctuation)
    index: dict[str, tuple[Pos, ...]]  # lower-cased word -> where it occurs, in reading order
    quoted: dict[Pos, list[Pos]]       # a word inside quotation marks -> its quotation's words

    @classmethod
    def compute(cls, doc: Document, state: ReviewState) -> Structure:
        from subcase.casing.pauses import for_unpunctuated, opening_words, pauses_of

        cues = doc.cues
        tokens = [cue.tokens() for cue in cues]
        pauses = for_unpunctuated(tokens, pauses_of(cues))
        silences = {c: (cues[c].start_ms - cues[c - 1].end_ms) / 1000 for c, _ in opening_words(tokens, pauses)}
        index: dict[str, list[Pos]] = {}
        for pos in state.positions():
            index.setdefault(state.word(pos).form.lower(), []).append(pos)
        return cls(sentence_initial(doc, state), frozenset(line_starts(doc, state)), has_sentence_punctuation(doc),
                   categories_of(doc, state.cues), silences, {k: tuple(v) for k, v in index.items()},
                   quoted_spans(doc, state))


# English quotation marks: a straight one opens or closes, a curly one says which.
QUOTE_MARKS = {'"': None, "\u201c": True, "\u201d": False}


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


def version(doc: Document, state: ReviewState) -> tuple:
    """What the structure depends on: the cue texts but for their case, and each word's place and model
    tag (a speaker label is told by the model's tags)."""
    return tuple(_cue_version(doc, state, c) for c in range(len(doc.cues)))


def _cue_version(doc: Document, state: ReviewState, c: int) -> tuple:
    """One cue's part of ``version``."""
    return (doc.cues[c].text.lower(),
            tuple((w.word_index, w.start, w.end, w.model_tag) for w in state.cues[c]) if c < len(state.cues) else None)


class DocumentStructure:
    """The structure of a reviewed document, computed again only when its words change.

    Whether they changed is decided by value, cue by cue, but only for the cues whose text or list of
    words is another object than at the last look: a key press makes a new text for the cues it re-cases
    and leaves every other cue's objects as they were (a word's place moves only with its cue's text), so
    a look costs a pass of identity checks over the cues and a comparison of the few that changed, not a
    copy of every word of a three-hour file on every key."""

    def __init__(self) -> None:
        self._texts: list[str] = []         # each cue's text at the last look (held, so ``is`` is sound)
        self._words: list[list] = []        # each cue's list of review words at the last look
        self._version: list[tuple] = []     # each cue's part of ``version`` at the last look
        self._structure: Structure | None = None

    def of(self, doc: Document, state: ReviewState) -> Structure:
        texts = list(map(attrgetter("text"), doc.cues))
        words = list(state.cues)
        if self._structure is None or len(texts) != len(self._texts) or len(words) != len(self._words):
            self._version = list(version(doc, state))
            self._structure = Structure.compute(doc, state)
        else:
            moved = set(compress(count(), map(is_not, texts, self._texts)))
            moved.update(compress(count(), map(is_not, words, self._words)))
            stale = False
            for c in moved:
                part = _cue_version(doc, state, c)
                stale = stale or part != self._version[c]
                self._version[c] = part
            if stale:
                self._structure = Structure.compute(doc, state)
        self._texts, self._words = texts, words
        return self._structure


__all__ = ["DocumentStructure", "Structure", "quoted_spans", "version"]
