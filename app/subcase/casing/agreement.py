"""Restored marks and casing that agree: the joint choice where the head's mark and the next word's capital
tell different stories (issue #55, item 4).

The tagger reads unpunctuated text, so much of the capital it gives a word is positional: it reads a
sentence start there (Beaufays & Strope's positional capitalisation).  The head reads the marks from the same
pass and may put a comma, or nothing, before that word ("Hey, sit, Still,").  Where the restorer chose the
mark after a word and the next word is Title case only because the tagger reads a sentence start, the two
readings are settled together, from the model's own probabilities:

- a sentence end (P(end) from the head, ``pe``) with the capital (P(capital) from the tagger, ``pc``):
  pe * pc / prior;
- no sentence end with the word in lower case: (1 - pe) * (1 - pc) / (1 - prior).

Two readings of one event, each a posterior that holds the prior of a sentence end once: their product holds
it twice, so it is divided out once (``prior``: the head's mean P(end) over the words of the run, the share
of words it expects to end a sentence).  The likelier wins.  An end makes the mark after the word the head's likeliest full stop, question or
exclamation mark; lower case makes a word after a restored comma lower case.  A capital after no mark at all
is kept: lowering those lost more casing than it mended on the punctuation test set (the capitals there are
mostly names the file uses once; docs/research/2026-11-29-consistent-marks.md).

Which capitals are positional: the word's intrinsic form is how the tagger writes it where no sentence can
start, read from the same file.  A word the tagger writes in lower case there (capital probability under
``POSITIONAL`` on average) is capitalised only by position.  A word the file has nowhere else is positional
unless the tagger is sure of its capital (``SURE_CAPITAL``): a name keeps its capital after a comma
("Thanks, Neha").
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .engine import WordPrediction
from .marks import COMMA, MARKS, SENTENCE_ENDS
from .restoring import MarkChoice, likeliest_end
from .tags import Tag

# P(sentence end) under which the head reads no sentence start after a word: where the tagger's capital for
# the next word is its intrinsic one
MID_SENTENCE = 0.1
# the mean capital probability, where no sentence starts, under which a word's capital is positional
POSITIONAL = 0.2
# a word the file has nowhere mid-sentence is intrinsically capitalised when the tagger is this sure of it
SURE_CAPITAL = 0.95

_END = np.array([m in SENTENCE_ENDS for m in MARKS])
_COMMA = MARKS.index(COMMA)


def agree(choice: MarkChoice, preds: Sequence[WordPrediction | None], text_of: Callable[[int], str]
          ) -> dict[int, float]:
    """Settle the marks of ``choice`` (its ``best``, changed in place) with the words' casing: ``preds`` gives
    each word of ``choice.where`` its prediction (None: not cased, no letters), ``text_of(j)`` word j in lower
    case.
    Returns the words (indices into ``choice.where``) to write in lower case, with the probability of that
    reading (their capital was positional and the mark before them ends no sentence)."""
    n = len(choice.where)
    if n < 2:
        return {}
    pe = choice.probs[:, _END].sum(1)
    best = choice.best
    prior = min(max(float(pe.mean()), 1e-6), 1.0 - 1e-6)
    # the tagger's capital probability for each word where the head reads no sentence start before it
    count: dict[str, int] = {}
    total: dict[str, float] = {}
    for j in range(1, n):
        pred = preds[j]
        if pred is not None and pe[j - 1] < MID_SENTENCE and MARKS[best[j - 1]] not in SENTENCE_ENDS:
            text = text_of(j)
            count[text] = count.get(text, 0) + 1
            total[text] = total.get(text, 0.0) + 1.0 - pred.probs[0]
    lowered: dict[int, float] = {}
    for j in range(n - 1):
        pred = preds[j + 1]
        if not choice.free[j] or pred is None or pred.tag is not Tag.T or MARKS[best[j]] in SENTENCE_ENDS:
            continue
        text = text_of(j + 1)
        pc = 1.0 - pred.probs[0]
        seen, capital = count.get(text, 0), total.get(text, 0.0)
        if pe[j] < MID_SENTENCE:
            seen, capital = seen - 1, capital - pc  # its own reading is no evidence of itself
        positional = capital / seen < POSITIONAL if seen > 0 else pc < SURE_CAPITAL
        if not positional:
            continue
        as_end = float(pe[j]) * pc / prior
        as_lower = (1.0 - float(pe[j])) * (1.0 - pc) / (1.0 - prior)
        if as_end >= as_lower:
            best[j] = likeliest_end(choice.probs[j])
        elif best[j] == _COMMA:
            lowered[j + 1] = as_lower / (as_lower + as_end) if as_lower + as_end > 0 else 1.0
    return lowered


def lower_reading(p_lower: float) -> WordPrediction:
    """A word whose capital was positional, after a mark that ends no sentence: lower case, as sure as the joint
    choice is (so a doubtful one is highlighted for review)."""
    return WordPrediction(Tag.L, (p_lower, 1.0 - p_lower, 0.0, 0.0))


__all__ = ["MID_SENTENCE", "POSITIONAL", "SURE_CAPITAL", "agree", "lower_reading"]
