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


@pytest.mark.parametrize("text", ["I know... maybe", "I know\u2026 maybe"])
def test_one_sentence_end_predicate_with_auto_modes_ellipsis_variant(text):
    """"I know... maybe": the rule of sentence starts, the written marks and auto mode read the ellipsis
    through one predicate of marks.py; auto mode's variant alone lets the sentence go on after it."""
    from subcase.casing import auto
    from subcase.casing.marks import ends_sentence, ends_sentence_firmly
    from subcase.casing.rules import sentence_starts

    tokens = tokenize(text)
    ellipsis = [k for k, t in enumerate(tokens) if not t.is_word]
    assert all(ends_sentence(tokens[k].text) for k in ellipsis)
    assert not any(ends_sentence_firmly(tokens, k) for k in ellipsis)
    assert ends_sentence(text[text.index("w") + 1:text.index(" m")]) and mark_after(text, 6) == FULL_STOP
    assert [start for _, tok, start in sentence_starts([tokens]) if tok.text == "maybe"] == [True]
    assert not hasattr(auto, "_ends_sentence")
    question = tokenize("Why? maybe")
    assert ends_sentence_firmly(question, 1) and ends_sentence("?!")
