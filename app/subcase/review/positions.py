"""Where a reviewable word sits: at a sentence start, at a line start, in a file that marks sentence ends.

The review core asks these of the document as it stands (after a text edit too): learning never takes a
sentence start's capital as evidence (it is positional), the flags explain with them, and the series
simulation reads them.  Decided from the cue text's tokens, so markup never counts.
"""

from __future__ import annotations

from subcase.casing.rules import PROBE_CUES, SENTENCE_END, marks_sentence_ends
from subcase.subtitles import Document

from .state import Pos, ReviewState

LINE_OPENERS = {"-", "\u2010", "\u2013", "\u2014", ">"}


def has_sentence_punctuation(doc: Document) -> bool:
    """Whether the file marks sentence ends at all (speech recognition often does not)."""
    return marks_sentence_ends([cue.tokens() for cue in doc.cues[:PROBE_CUES]])


def sentence_initial(doc: Document, state: ReviewState) -> dict[Pos, bool]:
    """Which reviewable words start a sentence: after . ! ?, at a line that opens with a dash
    or ``>>``, or at a cue start when the file has no sentence punctuation at all."""
    punctuated = has_sentence_punctuation(doc)
    out: dict[Pos, bool] = {}
    start = True
    for c, cue in enumerate(doc.cues):
        start = start or not punctuated
        slots = {w.word_index: s for s, w in enumerate(state.cues[c])}
        line_start = True
        word_index = -1
        text = cue.text
        prev_end = 0
        for tok in cue.tokens():
            if "\n" in text[prev_end:tok.start]:
                line_start = True
            prev_end = tok.end
            if not tok.is_word:
                if tok.text in SENTENCE_END:
                    start = True
                elif line_start and tok.text in LINE_OPENERS:
                    start = True
                continue
            word_index += 1
            s = slots.get(word_index)
            if s is not None:
                out[(c, s)] = start
            start = False
            line_start = False
    return out


def line_starts(doc: Document, state: ReviewState) -> set[Pos]:
    """The reviewable words that open a line of their cue (the first word of a cue included)."""
    out: set[Pos] = set()
    for c, cue in enumerate(doc.cues):
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
