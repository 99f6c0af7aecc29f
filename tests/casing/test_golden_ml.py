"""Golden outputs of the multilingual companion model (models/multilingual/), when one is shipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from subcase.casing import case_texts

HERE = Path(__file__).resolve().parent
GOLDEN = {"exact": HERE / "golden_ml.json", "avx2": HERE / "golden_ml-avx2.json"}
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
def goldens() -> dict[str, dict]:
    return {kernel: json.loads(path.read_text(encoding="utf-8")) for kernel, path in GOLDEN.items()}


def test_golden_matches_the_shipped_multilingual_model(companion, goldens):
    for kernel, golden in goldens.items():
        assert golden["sha256"] == companion.info.sha256, (
            f"models/multilingual/model.onnx changed ({GOLDEN[kernel].name}): regenerate with "
            "`python tests/casing/make_golden_ml.py` and review the differences")
        assert golden["languages"] == list(companion.languages) and golden["cases"]


def test_golden_outputs_of_this_cpus_int8_kernel(companion, goldens):
    """Tags exactly, probabilities within the tolerance, of the golden file this CPU's int8
    arithmetic reproduces (the closer one; see test_golden.py for why there are two)."""
    observed = {lang: case_texts(companion, e["texts"]).words for lang, e in goldens["exact"]["cases"].items()}
    diffs = {k: max(abs(p - q) for lang, words in observed.items()
                    for w, e in zip(words, g["cases"][lang]["words"]) for p, q in zip(w.probs, e["probs"]))
             for k, g in goldens.items()}
    kernel = min(diffs, key=diffs.__getitem__)
    for lang, words in observed.items():
        expected = goldens[kernel]["cases"][lang]["words"]
        got = [{"cue": w.cue_index, "input": w.input, "output": w.output, "tag": w.tag.value} for w in words]
        assert got == [{k: e[k] for k in ("cue", "input", "output", "tag")} for e in expected], (lang, kernel)
        for w, e in zip(words, expected):
            assert list(w.probs) == pytest.approx(e["probs"], abs=TOLERANCE), (lang, w.input, GOLDEN[kernel].name)
