"""The first word of a subtitle file opens a sentence.

A film, a talk or an episode starts with a new sentence, and its subtitles
with a capital.  The model does not know where a file starts: it is trained
on windows cut from running text, which often begin mid-sentence, and the
full stop the engine puts before a file (``CasingEngine.predict``) only
partly tells it.  So it is unsure of the first word, which the humans
capitalise in every file that plainly opens with one
(docs/research/2026-11-27-file-start.md).

So, as a silence is weighed (pauses.py), the evidence is folded in, not
obeyed: the odds for lower case are divided by ``LIKELIHOOD_RATIO`` (what the
model's confidences expected in lower case over what was seen), the mass going
to the capitalised tags in proportion (an all-caps title stays UPPER if the model thought so).  Only a
word that plainly opens the text is weighed: the first word of the first cue
with words, after nothing but a dash, a quotation mark or an opening ¡ or ¿.  Not a sound cue or anything
else in brackets (house style decides those), not after an ellipsis (a file
cut from a longer one), not after markup or an HTML entity, and not a word
followed by a colon within its first three words (a speaker label, whose
casing is house style too).
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles.words import Token

from .engine import WordPrediction
from .tags import Tag

LIKELIHOOD_RATIO = 5.0
# what may come before the opening word: dashes of dialogue, quotation marks, Spanish opening marks
LEADS = frozenset("-\u2010\u2013\u2014\"'\u201c\u201e\u00ab\u2018\u00a1\u00bf")
LABEL_WORDS = 3  # a colon after this many words or fewer may end a speaker label


def opening_word(cues: Sequence[Sequence[Token]]) -> tuple[int, int] | None:
    """(cue, token index) of the word that opens the file, or None when the file does not plainly
    open with one (see the module's notes)."""
    for c, tokens in enumerate(cues):
        words = [k for k, tok in enumerate(tokens) if tok.is_word]
        if not words:
            continue
        first = words[0]
        if any(tok.text not in LEADS for tok in tokens[:first]):
            return None
        ahead = words[LABEL_WORDS] if len(words) > LABEL_WORDS else len(tokens)
        if any(tok.text == ":" for tok in tokens[first:ahead]):
            return None
        return c, first
    return None


def at_file_start(pred: WordPrediction) -> WordPrediction:
    """``pred`` for the word that opens the file: the odds for lower case divided by ``LIKELIHOOD_RATIO``."""
    return pred.weighed(Tag.L, 1.0 / LIKELIHOOD_RATIO)
