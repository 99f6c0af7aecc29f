"""Caps mode: a line mostly in capitals is recased; the mixed forms the lexicon knows are kept."""

from __future__ import annotations

import pytest

from subcase.casing import case_document
from subcase.casing.modes import CAPS_SHARE, is_caps_line, known_mixed
from subcase.cli import main
from subcase.subtitles import load

LEXICON = {"iphone": "iPhone", "mcdonald": "McDonald", "ebay": "eBay"}


@pytest.mark.parametrize("line, caps", [
    ("I BOUGHT AN iPHONE", True),          # one lower-case letter in fifteen
    ("WE ATE AT McDONALD'S", True),
    ("WELCOME TO THE 2º FLOOR", True),     # º has no case: it neither counts nor breaks the line
    ("ABCDe", True),                       # exactly 80 % capitals
    ("ABCde", False),                      # 60 %
    ("We met John in London.", False),
    ("OK", True),
    ("A", False),                          # one letter says nothing
    ("2º 3º", False),                      # no cased letter at all
])
def test_a_line_is_in_capitals_when_four_fifths_of_its_cased_letters_are(line, caps):
    assert CAPS_SHARE == 0.8
    assert is_caps_line(line.split()) is caps


@pytest.mark.parametrize("word, form", [
    ("iPHONE", "iPhone"), ("McDONALD'S", "McDonald's"), ("iPHONES", "iPhones"), ("eBAY", "eBay"),
    ("IPHONE", None),      # all capitals: nothing says it is the mixed form, the model decides
    ("Iphone", "iPhone"),  # written otherwise in mixed case: the lexicon's form
    ("LoNDON", None),      # a word the lexicon does not know
    ("iphone", None),      # no capital: not a mixed spelling in a capitals line
])
def test_a_mixed_spelling_in_a_capitals_line_takes_the_lexicon_form(word, form):
    assert known_mixed(word, LEXICON) == form


SRT = ("1\n00:00:01,000 --> 00:00:02,000\nI BOUGHT AN iPHONE AT McDONALD'S IN LONDON.\n\n"
       "2\n00:00:03,000 --> 00:00:04,000\nWELCOME TO THE 2º FLOOR, SIR.\n\n"
       "3\n00:00:05,000 --> 00:00:06,000\nWe met john there.\n")


def test_caps_mode_recases_a_line_with_a_stray_lower_case_letter(tmp_path, engine):
    src = tmp_path / "news.srt"
    src.write_text(SRT, encoding="utf-8")
    # Every word asserted below has a wide margin on both kernels: P(chosen tag) >= 0.997 for
    # "I", "bought", "an", "at", "in", "London", "Welcome", "to", "the" (the mixed forms are the
    # lexicon's by rule, not the model's).
    casing = case_document(engine, load(src), "caps", punctuate="never")
    for w in casing.words:
        if w.cue_index == 0 or w.input in ("WELCOME", "TO", "THE"):
            assert max(w.probs) >= 0.99, (w.input, w.probs)
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--mode", "caps", "-q"]) == 0
    cues = load(tmp_path / "out" / "news.srt").cues
    assert cues[0].text == "I bought an iPhone at McDonald's in London."
    assert cues[1].text.startswith("Welcome to the 2º ")
    assert cues[2].text == "We met john there."  # not a capitals line: kept as written
