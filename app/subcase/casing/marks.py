"""The punctuation mark that ends a word: one definition for training labels, the model's output and scoring.

A word's mark is the punctuation written right after it, up to the next white space or the end of the text:
"said," ends with a comma, "Hi!\"" with an exclamation mark (closing quotes and brackets are not marks),
while the dot in "3.5" or the first one of "U.S." is inside a token, not at a word's end.  Subtitles use more
signs than the model predicts; each counts as the mark it does the work of: ``;`` and ``:`` as a comma,
``...`` and ``…`` as a full stop (a trailing-off sentence ends there), ``?!`` as a question mark.
"""

from __future__ import annotations

from typing import Final, Sequence

from subcase.subtitles.marking import NO_BREAK
from subcase.subtitles.words import Token

NONE: Final = ""
COMMA: Final = ","
FULL_STOP: Final = "."
QUESTION: Final = "?"
EXCLAMATION: Final = "!"
# The model's output order; "" first, so index 0 is "no mark".
MARKS: Final = (NONE, COMMA, FULL_STOP, QUESTION, EXCLAMATION)
MARK_NAMES: Final = {NONE: "none", COMMA: "comma", FULL_STOP: "full stop", QUESTION: "question mark",
                     EXCLAMATION: "exclamation mark"}

# The marks that end a sentence: the next word starts one.
SENTENCE_ENDS: Final = frozenset((FULL_STOP, QUESTION, EXCLAMATION))

# Closing quotes and brackets follow a mark without changing it.
CLOSERS: Final = frozenset("\"'\u2019\u201d\u00bb\u203a)]}")
_AS_COMMA: Final = frozenset(",;:")
# the marks (and French closing quote) a no-break space may keep on its word's line: French "mot\u00a0?"
_PUNCTUATION_AFTER_SPACE: Final = frozenset("?!:;\u00bb")
_AS_FULL_STOP: Final = frozenset(".\u2026")


def classify(run: str) -> str:
    """The mark a run of punctuation characters counts as (one of ``MARKS``)."""
    if "?" in run:
        return QUESTION
    if "!" in run:
        return EXCLAMATION
    if any(c in _AS_FULL_STOP for c in run):
        return FULL_STOP
    if any(c in _AS_COMMA for c in run):
        return COMMA
    return NONE


def ends_sentence(run: str) -> bool:
    """Whether a run of punctuation (or one punctuation token) ends a sentence, so the next word starts one:
    the one sentence-end predicate.  An ellipsis does ("I know... maybe": a trailing-off sentence ends there)."""
    return classify(run) in SENTENCE_ENDS


def ends_sentence_firmly(tokens: Sequence[Token], k: int) -> bool:
    """``ends_sentence`` for token k of a cue, except an ellipsis ("...", "\u2026"): the variant auto mode
    weighs lower-case evidence with, where a sentence that trails off may go on in lower case
    ("I know... maybe")."""
    t = tokens[k].text
    if not ends_sentence(t) or t == "\u2026":
        return False
    return not (t == "." and ((k > 0 and tokens[k - 1].text == ".") or
                              (k + 1 < len(tokens) and tokens[k + 1].text == ".")))


def trailing_run(text: str, end: int) -> str:
    """The punctuation written right after the word that ends at ``end``, or "" when the word does not end a
    token there (another word follows without a space: "3.5", "U.S").  Closing quotes and brackets are left
    out.  A no-break space between the word and its punctuation (French typography: "mot\u00a0?",
    "dit\u202f:") belongs to the mark: no line may break there, so the mark is the word's own."""
    stop = end
    n = len(text)
    while stop < n and text[stop] in NO_BREAK:
        stop += 1
    if stop > end and not (stop < n and text[stop] in _PUNCTUATION_AFTER_SPACE):
        return ""
    end = stop
    while stop < n and not text[stop].isspace() and not (text[stop].isalnum() or text[stop] == "_"):
        stop += 1
    if stop < n and not text[stop].isspace():
        return ""  # glued to the next word: punctuation inside a token
    return "".join(c for c in text[end:stop] if c not in CLOSERS)


def mark_after(text: str, end: int) -> str:
    """The mark that ends the word ending at ``end`` in ``text`` (one of ``MARKS``)."""
    return classify(trailing_run(text, end))


def sentence_end_probability(probs: tuple[float, ...]) -> float:
    """The probability that a sentence ends after the word, from its marks' probabilities (``MARKS`` order)."""
    return sum(p for m, p in zip(MARKS, probs) if m in SENTENCE_ENDS)
