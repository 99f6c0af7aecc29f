"""Words a language writes only capitalised (casing/capitalised.py): German nouns, with the real model."""

from __future__ import annotations

import gzip
import json

import pytest

from subcase.casing import CasingEngine, Mode, capitalised
from subcase.casing.capitalised import LIKELIHOOD_RATIO
from subcase.casing.lexicon import load_capitalised
from subcase.casing.restoring import Punctuate
from subcase.casing.routing import case_by_language
from subcase.paths import models_dir
from subcase.subtitles.words import tokenize

GERMAN = ["wir haben das haus am see gekauft,", "und am abend essen wir dort zusammen."]


def _words(engine: CasingEngine, texts: list[str], lang: str = "de"):
    cues = [tokenize(t) for t in texts]
    return {w.input: w for w in case_by_language(engine, cues, mode=Mode.RESTORE, lang=lang, punctuate=Punctuate.NEVER).words}


@pytest.fixture(scope="module")
def engine(engine: CasingEngine) -> CasingEngine:
    """The session's engine (tests/conftest.py), when it has the German capitalised words."""
    if engine.engine_for("de") is None or not engine.engine_for("de").capitalised.get("de"):
        pytest.skip("the multilingual model or its capitalised words are not installed")
    return engine


def test_the_shipped_lists_hold_german_nouns_and_not_words_also_written_lower(engine: CasingEngine) -> None:
    words = load_capitalised(models_dir() / "multilingual" / "capitalised.json.gz")
    assert {"haus", "see", "abend"} <= words["de"]
    assert not {"essen", "und", "wir"} & words["de"]  # "essen" is also a verb: both forms listed


def test_a_german_noun_is_surer_of_its_capital(engine: CasingEngine, monkeypatch) -> None:
    weighed = _words(engine, GERMAN)
    monkeypatch.setattr(capitalised, "LIKELIHOOD_RATIO", 1.0)
    plain = _words(engine, GERMAN)
    haus, before = weighed["haus"], plain["haus"]
    assert haus.output == "Haus" and before.output == "Haus"
    title = before.probs[1]
    odds = haus.probs[1] / (1 - haus.probs[1])
    assert odds == pytest.approx(LIKELIHOOD_RATIO * title / (1 - title), rel=1e-6)
    assert sum(haus.probs) == pytest.approx(1.0)
    # a word written both ways in the list, and any other word, is as the model says
    for word in ("essen", "wir", "gekauft"):
        assert weighed[word].probs == plain[word].probs, word


def test_a_spanish_file_is_not_weighed_with_german_nouns(engine: CasingEngine, monkeypatch) -> None:
    spanish = ["compramos la casa junto al lago,", "y por la tarde comemos allí juntos."]
    weighed = _words(engine, spanish, "es")  # "lago" is a German list's name ("Lago Maggiore")
    monkeypatch.setattr(capitalised, "LIKELIHOOD_RATIO", 1.0)
    assert {k: w.probs for k, w in weighed.items()} == {k: w.probs for k, w in _words(engine, spanish, "es").items()}


def test_a_broken_list_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "capitalised.json.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(ValueError, match="not a gzipped JSON object"):
        load_capitalised(bad)
    bad.write_bytes(gzip.compress(json.dumps(["a"]).encode()))
    with pytest.raises(ValueError, match="must be a JSON object"):
        load_capitalised(bad)
