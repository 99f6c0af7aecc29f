"""Restoring missing punctuation in cues: which cues, and the head's marks put into the token lists that casing
reads (a mark is a zero-width punctuation token at the end of its word), so the words are cased as in
punctuated text (two stages: punctuate, then case)."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple, Sequence

import numpy as np

from subcase.subtitles.words import Token

from .encoder import BOUNDARY
from .engine import CasingEngine, OnProgress, ShouldCancel, StreamItem, StreamToken
from .marks import classify
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

# Real subtitles punctuated by people run up to about 60 words without a single mark (a list, a song, a long
# clause over several cues: the longest run in the shared dev files of five languages is 60).  A longer run of
# cues without any mark is speech-recognition output that lost its punctuation.
UNPUNCTUATED_RUN = 80


def cues_to_restore(cues: Sequence[Sequence[Token]], punctuate: Punctuate) -> list[bool] | None:
    """Per cue, whether marks may be added after its words; None when none may.  ``auto``: the cues of a file
    that marks nothing, and else the runs of consecutive cues without any mark that are ``UNPUNCTUATED_RUN``
    words or longer; a short cue without a mark ("yes", a continuation) is no sign of lost punctuation."""
    if punctuate is Punctuate.NEVER or not cues:
        return None
    if punctuate is Punctuate.ALWAYS:
        return [True] * len(cues)
    bare = [not any(not t.is_word and classify(t.text) for t in tokens) for tokens in cues]
    if all(bare):
        return [True] * len(cues)
    out = [False] * len(cues)
    c = 0
    while c < len(cues):
        if not bare[c]:
            c += 1
            continue
        end = c
        while end < len(cues) and bare[end]:
            end += 1
        if sum(t.is_word for tokens in cues[c:end] for t in tokens) >= UNPUNCTUATED_RUN:
            out[c:end] = [True] * (end - c)
        c = end
    return out if any(out) else None


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
