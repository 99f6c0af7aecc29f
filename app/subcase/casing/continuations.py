"""A cue that goes on after a comma or semicolon: its first word does not open a sentence.

The model reads across cue boundaries and sees the comma, yet it is unsure at
a cue start: some subtitles capitalise every cue, and half of its training
windows had their punctuation stripped, where a cue start is the likeliest
sentence start.  On real subtitles such a word is lower case far more often
than the model's confidence says (docs/research/2026-11-25-continuation-odds.md).

So, as for a silence (casing/pauses.py), the evidence is weighed, not obeyed:
where the model chose lower case, the odds for lower case are multiplied by
``LIKELIHOOD_RATIO`` (6, under what the measured words say), the mass taken
from the other tags in proportion.  The tag never changes, only how sure the
word is, so the editor is not sent to read the "and", "the" or "to" that
merely open a cue.  A word the model capitalised is left alone: after a comma
that is a name, or a mistake ("Like RSI") the editor should see.  A cue that
opens with a dash, a bracket or a quote is a new turn or a sound cue: not
weighed.

Subtitlers also mark a sentence that goes on with an ellipsis at the end of
one cue and at the start of the next ("I just want to answer the... /
...phone.").  There the first word is lower case nearly always, so its odds
for lower case are multiplied by ``ELLIPSIS_RATIO`` (6, as after a comma)
whatever the model chose: a capital there is more often the model's mistake
than a name, and a name or "I" is sure enough to keep its capital.  An
ellipsis at one end only says little: not weighed.
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles.words import Token

from .engine import WordPrediction
from .tags import Tag

MARKS = frozenset({",", ";"})
LIKELIHOOD_RATIO = 6.0
ELLIPSIS_RATIO = 6.0


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


def _is_ellipsis(tokens: Sequence[Token]) -> bool:
    """Whether ``tokens`` are exactly one ellipsis: "…", or three full stops."""
    return [t.text for t in tokens] in (["\u2026"], [".", ".", "."])


def ellipsis_words(cues: Sequence[Sequence[Token]]) -> set[tuple[int, int]]:
    """(cue, token index) of the first word of each cue that opens with an ellipsis ("...", "…") after a cue
    that ends with one: the sentence goes on across the two."""
    out: set[tuple[int, int]] = set()
    for c in range(1, len(cues)):
        before, tokens = cues[c - 1], cues[c]
        if not (_is_ellipsis(before[-1:]) or _is_ellipsis(before[-3:])):
            continue
        lead = 1 if _is_ellipsis(tokens[:1]) else 3 if _is_ellipsis(tokens[:3]) else 0
        if lead and len(tokens) > lead and tokens[lead].is_word:
            out.add((c, lead))
    return out


def after_ellipsis(pred: WordPrediction) -> WordPrediction:
    """``pred`` for the first word after an ellipsis on both sides of a cue break: the odds for lower case
    times ``ELLIPSIS_RATIO``, whatever the model chose."""
    return pred.weighed(Tag.L, ELLIPSIS_RATIO)
