"""One sentence-start rule: the casing's (casing/rules.py) and the review core's (review/positions.py)
give the same answer on every word, including where they disagreed before they were one rule."""

from __future__ import annotations

import pytest

from subcase.casing.rules import scored_words
from subcase.review import ReviewState, ReviewWord
from subcase.review.positions import has_sentence_punctuation, sentence_initial
from subcase.subtitles import loads


def document(*cues: str):
    text = "".join(f"{i + 1}\n00:00:0{i},000 --> 00:00:0{i},900\n{c}\n\n" for i, c in enumerate(cues))
    return loads(text.encode("utf-8"), "talk.srt")


def review_state(doc) -> ReviewState:
    return ReviewState([[ReviewWord(c, k, w.start, w.end, w.text, w.text, w.text, None, None)
                         for k, w in enumerate(cue.words())] for c, cue in enumerate(doc.cues)], 0.9)


def starts(*cues: str) -> tuple[dict[str, bool], dict[str, bool]]:
    """Each word's answer by the review core and by the casing's scoring, keyed "cue:word"."""
    doc = document(*cues)
    state = review_state(doc)
    review = {f"{c}:{state.word((c, s)).input}": v for (c, s), v in sentence_initial(doc, state).items()}
    casing = {f"{c}:{tok.text}": v for c, tok, v in
              scored_words([cue.tokens() for cue in doc.cues], cue_starts_sentence=not has_sentence_punctuation(doc))}
    return review, casing


@pytest.mark.parametrize("cues, word, expected", [
    # a full stop with a word glued to it is part of a web address: "org" starts nothing
    (("see w3.org now", "- and then."), "0:org", False),
    # a dash opening a cue after a line with no sentence end goes on in lower case (a list, a turn
    # that continues the sentence): no sentence start of its own
    (("see w3.org now", "- and then."), "1:and", False),
    (("in the higher education community", "- faculty, staff and vendors."), "1:faculty", False),
    # the ellipsis that carries a sentence on to the next line, glued to its word
    (("I just want to answer the...\n...phone.",), "0:phone", False),
    # where both rules always agreed: after a sentence end, with or without a dash
    (("She left.", "- Where to?"), "1:Where", True),
    (("She left.", "Where to?"), "1:Where", True),
    (("She left. then", "he came."), "0:then", True),
])
def test_the_review_core_and_the_casing_agree_on_sentence_starts(cues, word, expected):
    review, casing = starts(*cues)
    assert review[word] is expected
    assert casing[word] is expected
    assert review == casing


def test_without_sentence_punctuation_every_cue_starts_a_sentence():
    review, casing = starts("so we met", "at the w3c office", "- and then")
    assert review == casing == {"0:so": True, "0:we": False, "0:met": False, "1:at": True, "1:the": False,
                                "1:w3c": False, "1:office": False, "2:and": True, "2:then": False}
