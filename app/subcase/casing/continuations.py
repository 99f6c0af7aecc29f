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

Subtitlers also mark a sentence that goes on with an ellipsis at the end of
one cue and at the start of the next ("I just want to answer the... /
...phone.").  There the first word is lower case nearly always: of the 88
such words in the files above (79 of them in the Seinfeld episodes, none in
the multilingual files), 83, where the model's confidences expected 65.7;
it wrote 13 of them with a capital, and left 48 of those it wrote in lower
case under the review threshold.  So the odds for lower case of such a word
are multiplied by ``ELLIPSIS_RATIO`` (6, as after a comma; the words the model
wrote in lower case alone say about 8), whatever the model chose: a capital
there is more often the model's mistake than a name, and a name or "I" (the
other 5 words) is sure enough to keep its capital.  An ellipsis at one end
only says little (of 41 words after a cue ending in one that the model wrote
in lower case, 32 were, where it expected 36.5): not weighed.
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
