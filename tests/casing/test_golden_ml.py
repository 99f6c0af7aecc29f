"""Golden outputs of the multilingual companion model (models/multilingual/), when one is shipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from subcase.casing import case_texts

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden_ml.json"
TOLERANCE = 2e-3


@pytest.fixture(scope="module")
def companion(engine):
    if not (engine.model_dir / "multilingual" / "model.json").is_file():
        pytest.skip("no multilingual model is shipped")
    languages = [lang for lang in engine.model_languages if lang not in engine.languages]
    model = engine.engine_for(languages[0])
    assert model is not None and model is not engine
    return model


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_golden_matches_the_shipped_multilingual_model(companion, golden):
    assert golden["sha256"] == companion.info.sha256, (
        "models/multilingual/model.onnx changed: regenerate with `python tests/casing/make_golden_ml.py` "
        "and review the differences")
    assert golden["languages"] == list(companion.languages) and golden["cases"]


def test_golden_outputs(companion, golden):
    """Tags exactly, probabilities within the tolerance, on every CPU (one file: see test_golden.py)."""
    for lang, case in golden["cases"].items():
        words = case_texts(companion, case["texts"]).words
        got = [{"cue": w.cue_index, "input": w.input, "output": w.output, "tag": w.tag.value} for w in words]
        assert got == [{k: e[k] for k in ("cue", "input", "output", "tag")} for e in case["words"]], lang
        for w, e in zip(words, case["words"]):
            assert list(w.probs) == pytest.approx(e["probs"], abs=TOLERANCE), (lang, w.input)
