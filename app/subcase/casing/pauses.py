"""A silence between cues makes a sentence start likelier, in text that marks no sentence ends.

Speech-recognition output often has no . ! ? at all, and then the words are all
the model has to tell where a sentence starts.  A cue start is the likeliest
place, but not a sure one, and sentence starts at cue starts are the commonest
error on such input.  The timing adds evidence, how much depends on the genre:

- in talks, cut into cues at line breaks, a cue after a silence of a second or
  more nearly always opens a sentence, against under half of the cues after a
  short gap;
- in sitcom dialogue nearly every cue opens a sentence, and a speaker also
  pauses inside one ("I'm sorry, but, we, uh" ... "to"), so a long silence
  says little there.

So the silence is weighed, not obeyed: in a file without sentence punctuation,
where the model wrote the first word of a cue after a pause in lower case, the
odds against lower case are multiplied by ``LIKELIHOOD_RATIO``, the mass taken
from lower case going to Title.  The model still chooses, and a word it raises
this way stays under the review threshold, so the editor sees it.  A hard rule
(every such word raised) breaks more than it fixes in dialogue; the model is
far too sure of lower case at these places, hence a ratio as large as 8
(docs/research/2026-11-24-no-punctuation-pauses.md, ``docs/research/scripts/pause_threshold.py``).
A word the model already capitalised is left alone: making the model surer of
it would hide errors from the review.
Nothing changes where the file has punctuation (there the subtitler chose not
to end the sentence), inside brackets (house style decides sound cues) or for
the first cue.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from subcase.subtitles.words import Token

from .engine import WordPrediction
from .rules import marks_sentence_ends
from .tags import TAGS, Tag

PAUSE_MS = 1000
LIKELIHOOD_RATIO = 8.0
_OPEN = {"[", "("}


class Timed(Protocol):
    start_ms: int
    end_ms: int


def pauses_before(starts_ms: Sequence[int], ends_ms: Sequence[int]) -> list[bool]:
    """For each cue, whether a silence of at least ``PAUSE_MS`` comes before it (never the first).  A cue that
    ends before it starts (speech recognition writes some) is taken to end where it starts: its end time is
    wrong, and the silence after it is not known to be longer."""
    return [i > 0 and starts_ms[i] - max(ends_ms[i - 1], starts_ms[i - 1]) >= PAUSE_MS for i in range(len(starts_ms))]


def pauses_of(cues: Sequence[Timed]) -> list[bool]:
    """``pauses_before`` for a document's cues."""
    return pauses_before([c.start_ms for c in cues], [c.end_ms for c in cues])


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
        k = opening_word(tokens) if pauses[c] else None
        if k is not None:
            out.add((c, k))
    return out


def opening_word(tokens: Sequence[Token]) -> int | None:
    """The token index of the word a cue opens with, which a pause before the cue makes a likelier sentence
    start; None when a bracket or parenthesis comes first (a sound cue) or the cue has no word."""
    for k, tok in enumerate(tokens):
        if tok.is_word:
            return k
        if tok.text in _OPEN:
            return None
    return None


def after_pause(pred: WordPrediction) -> WordPrediction:
    """``pred`` for the first word after a pause: the odds against lower case times ``LIKELIHOOD_RATIO``,
    the probability taken from lower case given to Title."""
    if pred.tag is not Tag.L:
        return pred
    p = list(pred.probs)
    lower, title = TAGS.index(Tag.L), TAGS.index(Tag.T)
    weighed = p[lower] / (p[lower] + LIKELIHOOD_RATIO * (1.0 - p[lower])) if p[lower] < 1.0 else 1.0
    p[title] += p[lower] - weighed
    p[lower] = weighed
    best = max(range(len(p)), key=p.__getitem__)
    return WordPrediction(TAGS[best], (p[0], p[1], p[2], p[3]))
