"""A cue that goes on after a comma or semicolon: its first word does not open a sentence.

The model reads across cue boundaries and sees the comma, yet it is unsure at
a cue start: some subtitles capitalise every cue, and half of its training
windows had their punctuation stripped, where a cue start is the likeliest
sentence start.  Measured on punctuated files (the 22 English and 35
multilingual development subtitles, six Seinfeld episodes held out from
training), the first word of a cue after "," or ";" that the model wrote in
lower case: of the 64 it left under the review threshold, 1 was wrong where
its confidences expected 6.3 (odds about 7 times the model's); of all 291,
3 were wrong where it expected 7.3 (about 2.4 times).  The one is a
subtitler's "...i started walking, / And now i'm lost downtown!".

So, as for a silence (casing/pauses.py), the evidence is weighed, not obeyed:
where the model chose lower case, the odds for lower case are multiplied by
``LIKELIHOOD_RATIO`` (6, under the 7 of the words that decide the highlight),
the mass taken from the other tags in proportion.  The tag never changes
(F1 is the same), only how sure the word is, so the editor is not sent to
read the "and", "the" or "to" that merely open a cue: with learning, the
simulated review visits 568 -> 544 words on the English development files,
802 -> 782 in the Seinfeld episodes (the "And" above left) and 1,038 -> 1,029
on the multilingual ones (README, "Simulated review").  A word the model
capitalised is left alone: after a comma that is a name, or a mistake ("Like
RSI") the editor should see.  A cue that opens with a dash, a bracket or a
quote is a new turn or a sound cue: not weighed.
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles.words import Token

from .engine import WordPrediction
from .tags import Tag

MARKS = frozenset({",", ";"})
LIKELIHOOD_RATIO = 6.0


def continuing_words(cues: Sequence[Sequence[Token]]) -> set[tuple[int, int]]:
    """(cue, token index) of each cue's first token when it is a word and the cue before ends in ``MARKS``."""
    out: set[tuple[int, int]] = set()
    for c in range(1, len(cues)):
        before, tokens = cues[c - 1], cues[c]
        if before and tokens and before[-1].text in MARKS and tokens[0].is_word:
            out.add((c, 0))
    return out


def after_continuation(pred: WordPrediction) -> WordPrediction:
    """``pred`` for a word that continues a sentence: the odds for lower case times ``LIKELIHOOD_RATIO``."""
    return pred.weighed(Tag.L, LIKELIHOOD_RATIO) if pred.tag is Tag.L else pred
