"""A silence before a cue starts a sentence in a file without punctuation (casing/pauses.py), with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.casing import CasingEngine, Mode, case_file
from subcase.casing.pauses import LIKELIHOOD_RATIO, PAUSE_MS, pauses_before
from subcase.evaluation.runner import load_reference, model_input, run_model

FIRST = ["we waited at the station for an hour", "the train never came that morning"]


@pytest.fixture(scope="module")
def engine() -> CasingEngine:
    return CasingEngine()


def _srt(path: Path, texts: list[str], gaps_ms: list[int]) -> Path:
    """Cues of 2 s each, cue i starting ``gaps_ms[i]`` after the end of cue i - 1."""
    def stamp(ms: int) -> str:
        return f"00:{ms // 60000:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
    blocks, t = [], 0
    for i, (text, gap) in enumerate(zip(texts, gaps_ms)):
        start = t + gap
        t = start + 2000
        blocks.append(f"{i + 1}\n{stamp(start)} --> {stamp(t)}\n{text}\n")
    path.write_text("\n".join(blocks), encoding="utf-8")
    return path


def _cue_words(engine: CasingEngine, path: Path, cue: int, mode: Mode = Mode.RESTORE):
    return [w for w in case_file(engine, path, mode).casing.words if w.cue_index == cue]


def test_pauses_before_counts_the_silence_between_cues() -> None:
    assert pauses_before([0, 2100, 5100, 7500], [2000, 4100, 7000, 9000]) == [False, False, True, False]
    assert pauses_before([0, 1500], [2000, 3000]) == [False, False]  # overlapping (rolling captions)
    assert pauses_before([0, 2000 + PAUSE_MS], [2000, 9000]) == [False, True]
    assert pauses_before([], []) == []


def test_a_cue_after_a_silence_opens_a_sentence(engine: CasingEngine, tmp_path: Path) -> None:
    texts = [*FIRST, "and the rest is history"]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    # the words alone leave "and" lower case at a cue start, unsure; the silence tips it
    lower = close[0].probs[0]
    assert close[0].output == "and" and lower < 0.6
    assert paused[0].output == "And"
    assert paused[0].probs[0] == pytest.approx(lower / (lower + LIKELIHOOD_RATIO * (1 - lower)))
    assert paused[0].probs[1] == pytest.approx(close[0].probs[1] + lower - paused[0].probs[0])
    assert paused[0].confidence < engine.info.review_threshold  # still shown to the editor
    # only the opening word: the rest of the cue is as the model says
    assert [w.output for w in paused[1:]] == [w.output for w in close[1:]]
    # keep mode raises it too (it never lowers, and this raises)
    assert _cue_words(engine, tmp_path / "paused.srt", 2, Mode.KEEP)[0].output == "And"


def test_a_silence_is_weighed_not_obeyed(engine: CasingEngine, tmp_path: Path) -> None:
    # dialogue pauses inside sentences too: where the model is sure the cue goes on, it stays lower case
    texts = [*FIRST, "to the people who waited"]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    assert close[0].output == paused[0].output == "to"
    assert paused[0].probs[0] < close[0].probs[0]


def test_a_punctuated_file_keeps_the_models_casing_after_a_silence(engine: CasingEngine, tmp_path: Path) -> None:
    # the subtitler chose not to end the sentence before the silence
    texts = ["We waited at the station for an hour,", "the train never came that morning,", "but nobody told us why."]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    assert [(w.output, w.probs) for w in paused] == [(w.output, w.probs) for w in close]


def test_a_sound_cue_after_a_silence_is_left_to_the_house_style(engine: CasingEngine, tmp_path: Path) -> None:
    texts = [*FIRST, "[door closes] but nobody told us why"]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    assert [(w.output, w.probs) for w in paused] == [(w.output, w.probs) for w in close]


def test_evaluate_reads_the_timing_of_the_reference(engine: CasingEngine, tmp_path: Path) -> None:
    path = _srt(tmp_path / "ref.srt", ["We waited at the station for an hour", "The train never came that morning",
                                       "And the rest is history"], [0, 100, 1500])
    ref = load_reference(path)
    assert ref.pauses == [False, False, True]
    unpunctuated = model_input(ref, punctuated=False)
    hyp, _ = run_model(engine, unpunctuated, pauses=ref.pauses)
    assert hyp[2][0] == "And"
    # cue by cue, the file decides whether it marks sentence ends, not each cue alone
    alone, _ = run_model(engine, unpunctuated, per_cue=True)
    hyp, _ = run_model(engine, unpunctuated, per_cue=True, pauses=ref.pauses)
    assert alone[2][0] == "and"  # a cue alone: the model thinks it goes on
    assert hyp[2][0] == "And"    # but the file marks no sentence ends: the silence is weighed
