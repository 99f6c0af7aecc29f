"""A silence between cues starts a sentence, in text that marks no sentence ends.

Speech-recognition output often has no . ! ? at all, and then the words are all
the model has to tell where a sentence starts.  A cue start is the likeliest
place, but not a sure one: without punctuation, 128 of the English model's 364
errors on the development subtitles are sentence starts at a cue start, and in
talks cut at every line break many cue starts continue a sentence.  The timing
knows more than the words.  A cue that follows a silence of a second or more
nearly always opens a sentence (78 of 80 such cues in the English development
files; a speaker draws breath between sentences, and a subtitler leaves a gap
there), while short gaps say nothing (286 sentence starts against 318
continuations under half a second).

So, in a file without sentence punctuation, the first word of a cue after such
a pause is not lower case: the model's probability of lower case goes to Title,
and the model still chooses between Title, UPPER and a mixed form.  Nothing
changes where the file has punctuation (there the subtitler chose not to end
the sentence), inside brackets (house style decides sound cues) or for the
first cue.

Measured with ``subcase evaluate --strip-punct`` on the shared development
subtitles (errors without and with the rule at 1 s; README, "Input without
punctuation"): English 364 -> 354, Spanish 94 -> 90, French 210 -> 196,
German 53 -> 49, Portuguese 221 -> 213; a pause of 0.5-2 s gains in every
language, and below a second the rule starts to raise continuations.
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles.words import Token

from .engine import WordPrediction
from .rules import marks_sentence_ends
from .tags import TAGS, Tag

PAUSE_MS = 1000
_OPEN = {"[", "("}


def pauses_before(starts_ms: Sequence[int], ends_ms: Sequence[int]) -> list[bool]:
    """For each cue, whether a silence of at least ``PAUSE_MS`` comes before it (never the first)."""
    return [i > 0 and starts_ms[i] - ends_ms[i - 1] >= PAUSE_MS for i in range(len(starts_ms))]


def for_unpunctuated(cues: Sequence[Sequence[Token]], pauses: Sequence[bool] | None) -> Sequence[bool] | None:
    """``pauses`` if the file (all its ``cues``) marks no sentence ends, else None.  Decided for the
    whole file: a run of cues or a single cue without a full stop says nothing."""
    return None if not pauses or marks_sentence_ends(cues) else pauses


def opening_words(cues: Sequence[Sequence[Token]], pauses: Sequence[bool] | None) -> set[tuple[int, int]]:
    """(cue, token index) of the words that open a sentence after a pause (``pauses`` as
    ``for_unpunctuated`` gives them)."""
    if not pauses:
        return set()
    out: set[tuple[int, int]] = set()
    for c, tokens in enumerate(cues):
        if not pauses[c]:
            continue
        for k, tok in enumerate(tokens):
            if tok.is_word:
                out.add((c, k))
                break
            if tok.text in _OPEN:
                break
    return out


def after_pause(pred: WordPrediction) -> WordPrediction:
    """``pred`` for a word known to start a sentence: its lower-case probability goes to Title."""
    p = list(pred.probs)
    lower, title = TAGS.index(Tag.L), TAGS.index(Tag.T)
    p[title] += p[lower]
    p[lower] = 0.0
    best = max(range(len(p)), key=p.__getitem__)
    return WordPrediction(TAGS[best], (p[0], p[1], p[2], p[3]))
