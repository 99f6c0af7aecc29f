"""Restoring missing punctuation in cues: the head's marks put into the token lists that casing reads."""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from subcase.subtitles.words import Token

from .encoder import BOUNDARY
from .engine import CasingEngine, OnProgress, ShouldCancel, StreamItem, StreamToken
from .marks import classify
from .punctuation import HIDDEN, MarkPrediction


class InsertedMark(NamedTuple):
    """A mark the head puts after a word that had none: where, what, and how sure."""

    cue_index: int
    word_index: int   # index among the cue's words
    offset: int       # where the word ends in the cue text: the mark goes there
    prediction: MarkPrediction


def restore_marks(engine: CasingEngine, cues: Sequence[Sequence[Token]], restore: Sequence[bool],
                  progress: OnProgress | None = None, cancel: ShouldCancel | None = None,
                  min_confidence: float = 0.0) -> tuple[list[list[Token]], list[InsertedMark]]:
    """The marks the head predicts after the words of the cues marked in ``restore`` (all cues are read, as
    context), and the cues' token lists with those marks in them, ready to be cased as punctuated text
    (a mark is a zero-width punctuation token at the end of its word).  A word already followed by
    punctuation keeps it.  Without a head, nothing is inserted."""
    head = engine.punctuation
    if head is None or not any(restore):
        return [list(t) for t in cues], []
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
        return [list(t) for t in cues], []
    (hidden,) = engine.word_outputs(stream, (HIDDEN,), progress, cancel)
    rows = hidden[[t.is_word for t in stream]]
    predictions = head.predict(rows, np.asarray(ends))
    out = [list(t) for t in cues]
    inserted: list[InsertedMark] = []
    for (c, k, w), pred in zip(where, predictions):
        tokens = cues[c]
        if not restore[c] or pred.mark == "" or pred.confidence < min_confidence:
            continue
        if k + 1 < len(tokens) and not tokens[k + 1].is_word and classify(tokens[k + 1].text):
            continue  # written punctuation stays as it is
        inserted.append(InsertedMark(c, w, tokens[k].end, pred))
    for m in reversed(inserted):  # from the end, so token indices before stay valid
        tokens = out[m.cue_index]
        k = [i for i, t in enumerate(tokens) if t.is_word][m.word_index]
        tokens.insert(k + 1, Token(m.offset, m.offset, m.prediction.mark, False))
    return out, inserted
