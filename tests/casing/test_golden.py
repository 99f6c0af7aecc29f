"""Golden outputs: the shipped model's tags and probabilities on fixed inputs are pinned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from subcase.casing import case_texts

GOLDEN = Path(__file__).resolve().parent / "golden.json"


@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_golden_matches_the_shipped_model(engine, golden):
    assert golden["sha256"] == engine.info.sha256, (
        "models/model.onnx changed: regenerate with `PYTHONPATH=app python tests/casing/make_golden.py` "
        "and review the differences")


@pytest.mark.parametrize("case", ["cross_cue", "no_punctuation", "all_caps", "sound_and_speaker", "mixed_case",
                                  "honorifics"])
def test_golden_case(engine, golden, case):
    expected = golden["cases"][case]
    casing = case_texts(engine, expected["texts"])
    got = [{"cue": w.cue_index, "input": w.input, "output": w.output, "tag": w.tag.value} for w in casing.words]
    assert got == [{k: e[k] for k in ("cue", "input", "output", "tag")} for e in expected["words"]]
    for w, e in zip(casing.words, expected["words"]):
        assert list(w.probs) == pytest.approx(e["probs"], abs=2e-3), w.input
