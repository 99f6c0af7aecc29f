"""A cue after a comma or semicolon goes on with its sentence (casing/continuations.py), with the real model."""

from __future__ import annotations

import pytest

from subcase.casing import CasingEngine, Mode
from subcase.casing import continuations
from subcase.casing.continuations import LIKELIHOOD_RATIO, continuing_words
from subcase.casing.stream import case_token_lists
from subcase.subtitles.words import tokenize

LIST = ["when you are getting started with accessibility,", "to get a list of issues you can fix,",
        "and to see how far you have come."]


def _cues(texts: list[str]):
    return [tokenize(t) for t in texts]


def _first_words(engine: CasingEngine, texts: list[str]):
    return [w for w in case_token_lists(engine, _cues(texts), Mode.RESTORE).words if w.word_index == 0]


def test_continuing_words_are_cue_starts_after_a_comma_or_semicolon() -> None:
    cues = _cues(["so we went,", "and then we left;", "- who left?", "[door slams]", "nobody.", "yes"])
    # "- who left?" follows a semicolon, but a dash opens a new turn: not weighed
    assert continuing_words(cues) == {(1, 0)}
    assert continuing_words(_cues(["one,", "two,", "three"])) == {(1, 0), (2, 0)}
    assert continuing_words(_cues(["a comma,"])) == set()  # the first cue goes on from nothing
    assert continuing_words([]) == set()


def test_a_lower_case_cue_start_after_a_comma_is_surer(engine: CasingEngine, monkeypatch) -> None:
    weighed = _first_words(engine, LIST)
    monkeypatch.setattr(continuations, "LIKELIHOOD_RATIO", 1.0)
    plain = _first_words(engine, LIST)
    assert [w.output for w in weighed] == [w.output for w in plain] == ["When", "to", "and"]
    # the model alone leaves "to" under the review threshold; the comma before it settles it
    lower = plain[1].probs[0]
    assert lower < engine.info.review_threshold <= weighed[1].confidence
    odds = weighed[1].probs[0] / (1 - weighed[1].probs[0])
    assert odds == pytest.approx(LIKELIHOOD_RATIO * lower / (1 - lower))
    scale = (1 - weighed[1].probs[0]) / (1 - lower)  # the other tags keep their proportions
    assert weighed[1].probs[1:] == pytest.approx(tuple(p * scale for p in plain[1].probs[1:]))
    assert sum(weighed[1].probs) == pytest.approx(1.0)
    # the first cue goes on from nothing: as the model says
    assert weighed[0].probs == plain[0].probs


def test_a_name_after_a_comma_is_left_as_the_model_says(engine: CasingEngine, monkeypatch) -> None:
    texts = ["we flew out of boston last year,", "paris was lovely in the spring."]
    weighed = _first_words(engine, texts)
    monkeypatch.setattr(continuations, "LIKELIHOOD_RATIO", 1.0)
    plain = _first_words(engine, texts)
    assert weighed[1].output == "Paris"
    assert weighed[1].probs == plain[1].probs


def test_a_full_stop_ends_the_sentence_and_nothing_is_weighed(engine: CasingEngine, monkeypatch) -> None:
    texts = ["when you are getting started with accessibility.", "to get a list of issues is a start."]
    weighed = _first_words(engine, texts)
    monkeypatch.setattr(continuations, "LIKELIHOOD_RATIO", 1.0)
    assert [w.probs for w in weighed] == [w.probs for w in _first_words(engine, texts)]


def test_ellipsis_words_open_a_cue_with_an_ellipsis_after_one() -> None:
    cues = _cues(["i just want to answer the...", "...phone.", "emo\u2026", "\u2026why not?", "so...", "and then",
                  "well...", "- ...no.", "wait...", "...", "...ok"])
    # "and then" has no ellipsis of its own; "- ...no." opens with a dash (a new turn); "..." has no word
    assert continuations.ellipsis_words(cues) == {(1, 3), (3, 1), (10, 3)}
    assert continuations.ellipsis_words(_cues(["...as i was saying"])) == set()  # nothing before it
    # an ellipsis inside the cue's first words is a pause there, not an opening one
    assert continuations.ellipsis_words(_cues(["wait...", "so it\u2026 goes on"])) == set()
    assert continuations.ellipsis_words([]) == set()


def test_a_capital_after_a_two_sided_ellipsis_gives_way(engine: CasingEngine, monkeypatch) -> None:
    """Seinfeld S09E17: "May I ask... / ...what do you read in the bathroom?" The model alone writes
    "What"; the ellipsis on both sides of the break says the sentence goes on. "I" keeps its capital."""
    texts = ["may i ask...", "...what do you read in the bathroom?", "my boss said...",
             "...i have to make an example of you."]
    ratio = continuations.ELLIPSIS_RATIO
    weighed = _first_words(engine, texts)
    monkeypatch.setattr(continuations, "ELLIPSIS_RATIO", 1.0)
    plain = _first_words(engine, texts)
    assert [w.output for w in plain] == ["May", "What", "My", "I"]
    assert [w.output for w in weighed] == ["May", "what", "My", "I"]
    for w, p in zip(weighed[1::2], plain[1::2]):
        odds = w.probs[0] / (1 - w.probs[0])
        assert odds == pytest.approx(ratio * p.probs[0] / (1 - p.probs[0]))
    assert weighed[0].probs == plain[0].probs and weighed[2].probs == plain[2].probs
