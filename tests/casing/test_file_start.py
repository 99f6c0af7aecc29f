"""The first word of a file opens a sentence (casing/file_start.py), with the real model."""

from __future__ import annotations

import pytest

from subcase.casing import CasingEngine, Mode
from subcase.casing import file_start
from subcase.casing.file_start import LIKELIHOOD_RATIO, opening_word
from subcase.casing.hints import CueHints
from subcase.casing.restoring import Punctuate
from subcase.casing.routing import case_by_language
from subcase.casing.stream import case_token_lists
from subcase.subtitles.words import tokenize

# The opening of a real talk (W3C WAI "Perspectives", keyboard): the model alone leaves "not" unsure.
TALK = ["not being able to use your computer", "because your mouse doesn't work",
        "is frustrating."]


def _cues(texts: list[str]):
    return [tokenize(t) for t in texts]


def test_the_opening_word_is_the_first_word_that_plainly_opens_the_text() -> None:
    assert opening_word(_cues(["", "hello there.", "bye."])) == (1, 0)
    assert opening_word(_cues(["- hi.", "- hello."])) == (0, 1)       # a dash of dialogue
    assert opening_word(_cues(['"to postulate a conceit'])) == (0, 1)  # a quotation
    assert opening_word(_cues(["¡hola! mi nombre es shadi."])) == (0, 1)
    # house style decides sound cues and speaker labels; an ellipsis goes on from another file
    assert opening_word(_cues(["[jaunty piano tune]", "we are committed."])) is None
    assert opening_word(_cues(["...the head-snarlers"])) is None
    assert opening_word(_cues(["shadi abou-zahra: just a little"])) is None
    assert opening_word(_cues([">> narrator: once"])) is None
    assert opening_word(_cues(["&gt;&gt; shadi: just a little"])) is None  # an entity, as some files keep it
    assert opening_word(_cues(["", ""])) is None
    assert opening_word([]) is None


def test_the_first_word_of_a_file_is_surer_of_its_capital(engine: CasingEngine, monkeypatch) -> None:
    cues = _cues(TALK)
    weighed = case_by_language(engine, cues, mode=Mode.RESTORE, lang="en", punctuate=Punctuate.NEVER).words[0]
    monkeypatch.setattr(file_start, "LIKELIHOOD_RATIO", 1.0)
    plain = case_by_language(engine, cues, mode=Mode.RESTORE, lang="en", punctuate=Punctuate.NEVER).words[0]
    assert plain.output == weighed.output == "Not"
    # exactly the odds for lower case divided by the ratio, the rest in proportion
    lower = plain.probs[0]
    assert plain.confidence < engine.info.review_threshold  # the model alone sends the editor here
    assert weighed.probs[0] / (1 - weighed.probs[0]) == pytest.approx(lower / (1 - lower) / LIKELIHOOD_RATIO)
    assert weighed.confidence > plain.confidence
    others = [p for i, p in enumerate(plain.probs) if i != 0]
    scaled = [p for i, p in enumerate(weighed.probs) if i != 0]
    assert [s / sum(scaled) for s in scaled] == pytest.approx([p / sum(others) for p in others])
    # nothing else in the file moves
    monkeypatch.setattr(file_start, "LIKELIHOOD_RATIO", LIKELIHOOD_RATIO)
    rest = case_by_language(engine, cues, mode=Mode.RESTORE, lang="en", punctuate=Punctuate.NEVER).words[1:]
    monkeypatch.setattr(file_start, "LIKELIHOOD_RATIO", 1.0)
    assert case_by_language(engine, cues, mode=Mode.RESTORE, lang="en", punctuate=Punctuate.NEVER).words[1:] == rest


def test_only_the_file_start_is_weighed(engine: CasingEngine) -> None:
    """A run of cues from the middle of a file (another language's cues before it) is not a file start,
    and neither is plain stream casing that does not say so."""
    cues = _cues(TALK)
    plain = case_token_lists(engine, cues, Mode.RESTORE).words[0]
    opened = case_token_lists(engine, cues, Mode.RESTORE, CueHints(file_start=True)).words[0]
    assert opened.probs[0] < plain.probs[0]
    # the same talk after a cue the English model does not case (German): its first word is not weighed
    mixed = _cues(["das ist ein ganz normaler deutscher satz mit vielen wörtern."] + TALK)
    casing = case_by_language(engine, mixed, mode=Mode.RESTORE, lang="auto", punctuate=Punctuate.NEVER)
    languages = casing.language.cue_languages
    # the German cue, then the talk: its first cue too, beside the long German one (language._in_passage)
    assert languages[:2] == ["de", "en"], languages
    run = 1  # the English run the English model cases as one stream, from cue 1
    while run < len(languages) and languages[run] == "en":
        run += 1
    alone = case_token_lists(engine, mixed[1:run], Mode.RESTORE).words[0]
    first_english = next(w for w in casing.words if w.cue_index == 1)
    assert first_english.probs == pytest.approx(alone.probs, abs=1e-6)
