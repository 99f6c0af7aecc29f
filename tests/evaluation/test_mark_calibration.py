"""The restored marks' calibration: the temperature the engine applies to every mark probability, the fit that
finds it, the ECE `evaluate` reports beside the tags', and the mark-threshold sweep of `simulate-review`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from subcase.casing.calibration import apply_temperature, fit_temperature
from subcase.casing.marks import MARKS
from subcase.casing.restoring import InsertedMark
from subcase.casing.punctuation import MarkPrediction
from subcase.evaluation.punctuation import mark_ece, restored_outcomes
from subcase.subtitles import loads

SINTEL = "meyer1994__srt__sintel_en.srt"
SHORT = "w3c__wai-website__wai-videos__perspectives__en__perspectives_keyboard.en.vtt"


def test_the_fit_finds_the_temperature_that_made_the_marks_overconfident():
    rnd = np.random.default_rng(55)
    true = rnd.dirichlet(np.ones(len(MARKS)) * 0.7, size=20_000)
    gold = np.array([rnd.choice(len(MARKS), p=p) for p in true])
    sharpened = apply_temperature(true, 0.5)  # what an overconfident head says
    assert fit_temperature(sharpened, gold) == pytest.approx(2.0, abs=0.1)


def test_a_restored_mark_is_scored_against_the_reference_mark_after_its_word():
    doc = loads(b"1\n00:00:01,000 --> 00:00:02,000\nwell, we went. home\n", "a.srt")
    tokens = doc.cues[0].tokens()
    marks = [[",", ".", ""]]  # after well, went, home
    ends = [t.end for t in tokens if t.is_word]

    def restored(k: int, mark: str, p: float) -> InsertedMark:
        probs = [(1 - p) / 4] * len(MARKS)
        probs[MARKS.index(mark)] = p
        return InsertedMark(0, k, ends[k], MarkPrediction(mark, tuple(probs)))

    outcomes = restored_outcomes([tokens], marks, [restored(0, ",", 0.9), restored(1, "?", 0.6),
                                                   restored(2, ".", 0.7)])
    assert [gold for _, gold in outcomes] == [",", ".", ""]
    ece = mark_ece(outcomes)
    assert (ece["marks"], ece["right"]) == (3, 1)
    # one right at 0.9, two wrong at 0.6 and 0.7: |1 - 0.9| / 3 + 0.6 / 3 + 0.7 / 3
    assert ece["ece"] == pytest.approx((0.1 + 0.6 + 0.7) / 3)


@pytest.fixture
def stripped_sintel(engine, dev_subtitles):
    from subcase.evaluation.runner import load_reference, model_input

    path = next((p for p in dev_subtitles if p.name == SINTEL), None)
    if path is None:
        pytest.skip(f"shared dev subtitle missing: {SINTEL}")
    ref = load_reference(path)
    return ref, model_input(ref, punctuated=False)


def test_the_engine_calibrates_every_mark_with_the_temperature_of_the_models_card(engine, stripped_sintel):
    from subcase.casing.language import detect, token_text
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.runner import subcase_casing

    ref, inp = stripped_sintel
    card = engine.info.card["punctuation"]
    assert card["temperature"] > 1.0  # the shipped head is overconfident; fitted, not assumed
    assert engine.punctuation.temperature == card["temperature"]
    guess = detect([token_text(t) for t in ref.cues], "auto", "en")
    _, calibrated = subcase_casing(engine, ref, inp, guess, punctuate=Punctuate.AUTO)
    kept, engine.punctuation.temperature = engine.punctuation.temperature, 1.0
    try:
        _, raw = subcase_casing(engine, ref, inp, guess, punctuate=Punctuate.AUTO)
    finally:
        engine.punctuation.temperature = kept
    assert [(m.cue_index, m.offset, m.prediction.mark) for m in calibrated.marks] == \
        [(m.cue_index, m.offset, m.prediction.mark) for m in raw.marks]  # the same marks, only surer or less
    probs = np.array([m.prediction.probs for m in raw.marks])
    assert np.allclose([m.prediction.probs for m in calibrated.marks], apply_temperature(probs, kept), atol=1e-6)


def test_evaluate_reports_the_restored_marks_ece_beside_the_tags(engine, dev_subtitles):
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.runner import EvaluationOptions, evaluate, format_report

    path = next((p for p in dev_subtitles if p.name == SINTEL), None)
    if path is None:
        pytest.skip(f"shared dev subtitle missing: {SINTEL}")
    results = evaluate([path], engine, EvaluationOptions(baselines=False, per_cue=False, punct_settings=(False,),
                                                         punctuate=Punctuate.AUTO))
    entry = results["systems"]["subcase"]["nopunct"]
    marks = entry["punctuation"]["restored_marks"]
    assert marks["marks"] > 20 and 0.0 <= marks["ece"] <= 1.0
    assert sum(row["words"] for row in marks["reliability"]) == marks["marks"]
    assert f"restored marks' ECE {marks['ece']:.3f} on {marks['marks']}" in format_report(results)


def test_the_mark_threshold_sweep_reviews_each_threshold_and_chooses_one(engine, dev_subtitles, tmp_path, capsys):
    from subcase.cli import main

    path = next((p for p in dev_subtitles if p.name == SHORT), None)
    if path is None:
        pytest.skip(f"shared dev subtitle missing: {SHORT}")
    out = tmp_path / "sweep.json"
    assert main(["simulate-review", str(path), "--strip-punct", "-q", "--mark-thresholds", "0.9,0.5",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [r["mark_threshold"] for r in data["rows"]] == [0.0, 0.5, 0.9]
    assert data["chosen"] in (0.0, 0.5, 0.9) and data["model"] == engine.info.version
    for r in data["rows"]:
        assert r["reference_marks"] > 0 and r["marks_left_rate"] == r["marks_left"] / r["reference_marks"]
    assert "chosen mark threshold:" in capsys.readouterr().out
    assert main(["simulate-review", str(path), "--strip-punct", "--mark-thresholds", "0.5,2"]) == 2
    assert main(["simulate-review", str(path), "--strip-punct", "--punctuate", "never",
                 "--mark-thresholds", "0.5"]) == 2
