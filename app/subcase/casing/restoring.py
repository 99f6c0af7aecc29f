"""Restoring missing punctuation in cues: which cues, and the head's marks put into the token lists that casing
reads (a mark is a zero-width punctuation token at the end of its word), so the words are cased as in
punctuated text (two stages: punctuate, then case)."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple, Sequence

import numpy as np

from subcase.subtitles.words import Token

from .auto import unpunctuated
from .encoder import BOUNDARY
from .engine import CasingEngine, OnProgress, ShouldCancel, StreamItem, StreamToken
from .marks import MARKS, classify
from .punctuation import HIDDEN, MarkPrediction


class Punctuate(str, Enum):
    """Where missing punctuation is restored."""

    AUTO = "auto"       # in passages that carry none (``cues_to_restore``)
    ALWAYS = "always"   # after every word without a mark
    NEVER = "never"


PUNCTUATE_HELP = {
    Punctuate.AUTO: "restore missing punctuation only in passages that carry none",
    Punctuate.ALWAYS: "add marks after any word without one, also in punctuated text",
    Punctuate.NEVER: "never add punctuation",
}

def cues_to_restore(cues: Sequence[Sequence[Token]], punctuate: Punctuate) -> list[bool] | None:
    """Per cue, whether marks may be added after its words; None when none may.  ``auto``: the cues in
    passages without punctuation (``auto.unpunctuated``)."""
    if punctuate is Punctuate.NEVER or not cues:
        return None
    out = [True] * len(cues) if punctuate is Punctuate.ALWAYS else unpunctuated(cues)
    return out if any(out) else None


class InsertedMark(NamedTuple):
    """A mark the head puts after a word that had none: where, what, and how sure."""

    cue_index: int
    word_index: int   # index among the cue's words
    offset: int       # where the word ends in the cue text: the mark goes there
    prediction: MarkPrediction


class Restored(NamedTuple):
    """What ``restore_marks`` gives: the token lists with the marks in, the marks, and for each word after a
    restored boundary how likely the head is right about that boundary."""

    cues: list[list[Token]]
    marks: list[InsertedMark]
    # (cue, word index) -> the head's probability of its choice between a sentence end and none before the word
    boundary_belief: dict[tuple[int, int], float]


SENTENCE_ENDS = frozenset(".?!")


def restore_marks(engine: CasingEngine, cues: Sequence[Sequence[Token]], restore: Sequence[bool],
                  progress: OnProgress | None = None, cancel: ShouldCancel | None = None) -> Restored:
    """The marks the head predicts after the words of the cues marked in ``restore`` (all cues are read, as
    context), and the cues' token lists with those marks in them, ready to be cased as punctuated text
    (a mark is a zero-width punctuation token at the end of its word).  A word already followed by
    punctuation keeps it.  Without a head, nothing is inserted."""
    head = engine.punctuation
    if head is None or not any(restore):
        return Restored([list(t) for t in cues], [], {})
    boundary = StreamToken(BOUNDARY, False)
    stream: list[StreamItem] = []
    ends: list[bool] = []
    where: list[tuple[int, int, int]] = []  # per word: cue, token index, word index
    for c, tokens in enumerate(cues):
        stream.append(boundary)
        stream.extend(tokens)
        word_at = [k for k, t in enumerate(tokens) if t.is_word]
        for w, k in enumerate(word_at):
            ends.append(w == len(word_at) - 1)
            where.append((c, k, w))
    if not where:
        return Restored([list(t) for t in cues], [], {})
    (hidden,) = engine.word_outputs(stream, (HIDDEN,), progress, cancel)
    rows = hidden[[t.is_word for t in stream]]
    predictions = head.predict(rows, np.asarray(ends))
    out = [list(t) for t in cues]
    inserted: list[InsertedMark] = []
    belief: dict[tuple[int, int], float] = {}
    for j, ((c, k, w), pred) in enumerate(zip(where, predictions)):
        tokens = cues[c]
        if not restore[c]:
            continue
        if k + 1 < len(tokens) and not tokens[k + 1].is_word and classify(tokens[k + 1].text):
            continue  # written punctuation stays as it is
        if pred.mark:
            inserted.append(InsertedMark(c, w, tokens[k].end, pred))
        if j + 1 < len(where):
            # the next word is cased as if the head were right about the boundary before it
            p_end = sum(p for m, p in zip(MARKS, pred.probs) if m in SENTENCE_ENDS)
            nc, _, nw = where[j + 1]
            belief[(nc, nw)] = p_end if pred.mark in SENTENCE_ENDS else 1.0 - p_end
    for m in reversed(inserted):  # from the end, so token indices before stay valid
        tokens = out[m.cue_index]
        k = [i for i, t in enumerate(tokens) if t.is_word][m.word_index]
        tokens.insert(k + 1, Token(m.offset, m.offset, m.prediction.mark, False))
    return Restored(out, inserted, belief)
