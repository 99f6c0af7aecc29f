"""Where a reviewable word sits: at a sentence start, at a line start, in a file that marks sentence ends.

The review core asks these of the document as it stands (after a text edit too): learning never takes a
sentence start's capital as evidence (it is positional), the flags explain with them, and the series
simulation reads them.  Decided from the cue text's tokens, so markup never counts.
"""

from __future__ import annotations

from typing import Iterable

from subcase.casing.rules import PROBE_CUES, marks_sentence_ends, sentence_starts
from subcase.subtitles import Document

from .state import Pos, ReviewState


def has_sentence_punctuation(doc: Document) -> bool:
    """Whether the file marks sentence ends at all (speech recognition often does not)."""
    return marks_sentence_ends([cue.tokens() for cue in doc.cues[:PROBE_CUES]])


def sentence_initial(doc: Document, state: ReviewState) -> dict[Pos, bool]:
    """Which reviewable words start a sentence, by the casing's rule (``casing.rules.sentence_starts``):
    after . ! ? or an ellipsis with no word glued to it, or at a cue start when the file has no
    sentence punctuation at all."""
    cues = [cue.tokens() for cue in doc.cues]
    slots = [{w.word_index: s for s, w in enumerate(words)} for words in state.cues]
    out: dict[Pos, bool] = {}
    word_index, last_cue = -1, -1
    for c, _, start in sentence_starts(cues, cue_starts_sentence=not has_sentence_punctuation(doc)):
        word_index = word_index + 1 if c == last_cue else 0
        last_cue = c
        s = slots[c].get(word_index)
        if s is not None:
            out[(c, s)] = start
    return out


def line_starts(doc: Document, state: ReviewState, only: Iterable[int] | None = None) -> set[Pos]:
    """The reviewable words that open a line of their cue (the first word of a cue included); ``only``:
    those cues."""
    out: set[Pos] = set()
    for c in (range(len(doc.cues)) if only is None else only):
        cue = doc.cues[c]
        slots = {w.word_index: s for s, w in enumerate(state.cues[c])}
        text, prev_end, line_start, word_index = cue.text, 0, True, -1
        for tok in cue.tokens():
            if "\n" in text[prev_end:tok.start]:
                line_start = True
            prev_end = tok.end
            if not tok.is_word:
                continue
            word_index += 1
            if line_start and word_index in slots:
                out.add((c, slots[word_index]))
            line_start = False
    return out
