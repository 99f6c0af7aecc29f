"""The one rule for the mark that ends a word (training labels, model output, scoring)."""

import pytest

from subcase.casing.marks import COMMA, EXCLAMATION, FULL_STOP, NONE, QUESTION, classify, mark_after
from subcase.subtitles.words import tokenize


def _marks(text: str) -> list[tuple[str, str]]:
    return [(t.text, mark_after(text, t.end)) for t in tokenize(text) if t.is_word]


@pytest.mark.parametrize("text, expected", [
    ('He said, "Hi!" then left?!', [("He", NONE), ("said", COMMA), ("Hi", EXCLAMATION), ("then", NONE),
                                      ("left", QUESTION)]),
    ("U.S. e.g. 3.5 well\u2026 so... (yes), no; x: y",
     [("U", NONE), ("S", FULL_STOP), ("e", NONE), ("g", FULL_STOP), ("3", NONE), ("5", NONE),
      ("well", FULL_STOP), ("so", FULL_STOP), ("yes", COMMA), ("no", COMMA), ("x", COMMA), ("y", NONE)]),
    ("\u00bfQu\u00e9? \u00a1Hola! - dash -- Jean-Luc", [("Qu\u00e9", QUESTION), ("Hola", EXCLAMATION), ("dash", NONE),
                                                  ("Jean", NONE), ("Luc", NONE)]),
])
def test_a_word_ends_with_the_mark_written_after_it(text, expected):
    assert _marks(text) == expected


def test_closing_quotes_and_brackets_are_not_marks():
    assert classify('"') == NONE and classify(".\u201d") == FULL_STOP and classify(")") == NONE
