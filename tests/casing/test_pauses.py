"""A silence before a cue starts a sentence in a file without punctuation (casing/pauses.py), with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.casing import CasingEngine, Mode, case_file
from subcase.casing.pauses import LIKELIHOOD_RATIO, PAUSE_MS, pauses_before
from subcase.evaluation.runner import load_reference, model_input, run_model

FIRST = ["we waited at the station for an hour", "the train never came that morning"]


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
    return [w for w in case_file(engine, path, mode, punctuate="never").casing.words if w.cue_index == cue]


def test_pauses_before_counts_the_silence_between_cues() -> None:
    assert pauses_before([0, 2100, 5100, 7500], [2000, 4100, 7000, 9000]) == [False, False, True, False]
    assert pauses_before([0, 1500], [2000, 3000]) == [False, False]  # overlapping (rolling captions)
    assert pauses_before([0, 2000 + PAUSE_MS], [2000, 9000]) == [False, True]
    assert pauses_before([], []) == []


def test_a_cue_after_a_silence_opens_a_sentence(scripted, tmp_path: Path) -> None:
    # the rule, on a word the casing leaves lower case at a cue start, unsure (scripted: the real
    # model's such words are near-ties whose side depends on the CPU's int8 kernel)
    engine = scripted({(2, "and"): (0.55, 0.43, 0.01, 0.01)})
    texts = [*FIRST, "and the rest is history"]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    assert close[0].output == "and" and close[0].probs == (0.55, 0.43, 0.01, 0.01)
    assert paused[0].output == "And"
    assert paused[0].probs[0] == pytest.approx(0.55 / (0.55 + LIKELIHOOD_RATIO * 0.45))
    assert paused[0].probs[1] == pytest.approx(0.43 + 0.55 - paused[0].probs[0])
    assert paused[0].probs[2:] == (0.01, 0.01)
    assert paused[0].confidence < engine.info.review_threshold  # still shown to the editor
    # only the opening word: the rest of the cue is as the casing says
    assert [(w.output, w.probs) for w in paused[1:]] == [(w.output, w.probs) for w in close[1:]]
    # keep mode raises it too (it never lowers, and this raises)
    assert _cue_words(engine, tmp_path / "paused.srt", 2, Mode.KEEP)[0].output == "And"


def test_a_silence_leaves_a_word_already_capitalised_and_a_sure_lower_case_word(scripted, tmp_path: Path) -> None:
    engine = scripted({(2, "and"): (0.30, 0.68, 0.01, 0.01), (2, "to"): (0.97, 0.01, 0.01, 0.01)})
    for text, before, after in (("and the rest is history", "And", (0.30, 0.68, 0.01, 0.01)),
                                ("to the people who waited", "to", None)):
        paused = _cue_words(engine, _srt(tmp_path / "paused.srt", [*FIRST, text], [0, 100, 1500]), 2)
        assert paused[0].output == before
        if after is not None:  # the model capitalised it already: left as it is
            assert paused[0].probs == after
        else:  # weighed, not obeyed: odds of 0.97 / 0.03 against 8 leave it lower case
            assert paused[0].probs[0] == pytest.approx(0.97 / (0.97 + LIKELIHOOD_RATIO * 0.03))


# Through the real model: inputs whose every asserted decision has a margin of at least MARGIN between
# the two likeliest tags (measured natively with VNNI and on the AVX2 kernel, bench/avx2_only.py).  With
# the 7-bit weights the kernels compute the same integers and differ only by float rounding: up to 2e-3 on
# the golden inputs (tests/casing/test_golden.py), 0.006 on these.  The 8-bit weights differed by up to
# 0.09, and this was 0.2.  A model whose margin falls under it fails here on any CPU rather than flipping
# on some.
MARGIN = 0.1


def margin(probs) -> float:
    """How far the likeliest tag is ahead of the next one."""
    top, second = sorted(probs, reverse=True)[:2]
    return top - second


def test_a_cue_after_a_silence_opens_a_sentence_with_the_model(engine: CasingEngine, tmp_path: Path) -> None:
    # "but" at a cue start: lower case (P 0.753 on both kernels), Title after the silence (0.724)
    texts = [*FIRST, "but it was strange"]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    assert close[0].output == "but" and margin(close[0].probs) >= MARGIN
    assert paused[0].output == "But" and margin(paused[0].probs) >= MARGIN
    lower = close[0].probs[0]
    assert paused[0].probs[0] == pytest.approx(lower / (lower + LIKELIHOOD_RATIO * (1 - lower)))
    assert paused[0].confidence < engine.info.review_threshold
    assert [w.output for w in paused[1:]] == [w.output for w in close[1:]]


def test_a_silence_is_weighed_not_obeyed(engine: CasingEngine, tmp_path: Path) -> None:
    # dialogue pauses inside sentences too: where the model is sure the cue goes on, it stays lower case
    texts = [*FIRST, "to the people who waited"]
    close = _cue_words(engine, _srt(tmp_path / "close.srt", texts, [0, 100, 100]), 2)
    paused = _cue_words(engine, _srt(tmp_path / "paused.srt", texts, [0, 100, 1500]), 2)
    assert close[0].output == paused[0].output == "to"
    assert paused[0].probs[0] < close[0].probs[0]
    assert margin(paused[0].probs) >= MARGIN  # P(lower) 0.802 on both kernels


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
                                       "But it was strange"], [0, 100, 1500])
    ref = load_reference(path)
    assert ref.pauses == [False, False, True]
    unpunctuated = model_input(ref, punctuated=False)
    hyp, conf = run_model(engine, unpunctuated, pauses=ref.pauses)
    assert hyp[2][0] == "But" and conf[2][0] >= 0.5 + MARGIN / 2  # Title 0.724 on both kernels
    # cue by cue, the file decides whether it marks sentence ends, not each cue alone
    alone, conf_alone = run_model(engine, unpunctuated, per_cue=True)
    hyp, conf = run_model(engine, unpunctuated, per_cue=True, pauses=ref.pauses)
    assert alone[2][0] == "but" and conf_alone[2][0] >= 0.5 + MARGIN / 2  # a cue alone: it goes on (0.620)
    assert hyp[2][0] == "But" and conf[2][0] >= 0.5 + MARGIN / 2  # but the file marks no sentence ends (0.830)
