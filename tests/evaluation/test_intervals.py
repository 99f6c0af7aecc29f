"""F1 intervals over files (evaluation/intervals.py), by hand and through `subcase evaluate` on real files."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

from subcase.evaluation.intervals import f1_difference_interval, f1_interval
from subcase.evaluation.metrics import WordOutcome, score


def _file(pairs: list[tuple[str, str]], initial: int = -1) -> list[WordOutcome]:
    return [WordOutcome(ref, hyp, sentence_initial=(k == initial)) for k, (ref, hyp) in enumerate(pairs)]


GOOD = [("Paris", "Paris"), ("is", "is"), ("big", "big"), ("NASA", "NASA")]
BAD = [("Paris", "paris"), ("is", "Is"), ("big", "big"), ("NASA", "Nasa")]


def test_files_that_agree_give_a_point_and_one_file_gives_none() -> None:
    files = [_file(GOOD), _file(GOOD), _file(GOOD)]
    assert f1_interval(files) == (1.0, 1.0)
    assert f1_interval([_file(GOOD)]) is None


def test_the_interval_holds_the_pooled_f1_and_widens_as_files_disagree() -> None:
    mixed = [_file(GOOD)] * 6 + [_file(BAD)] * 2
    pooled = score([o for f in mixed for o in f])["f1"]
    low, high = f1_interval(mixed)
    assert low < pooled < high
    assert low >= 0.0 and high <= 1.0
    # the same pooled counts from more files of the same two kinds: a narrower interval
    many_low, many_high = f1_interval(mixed * 4)
    assert many_high - many_low < high - low
    assert f1_interval(mixed) == f1_interval(mixed)  # seeded: a report is reproducible


def test_intrinsic_leaves_out_sentence_initial_title_words() -> None:
    # the only error is a sentence-initial Title word: gone from the intrinsic counts
    files = [_file([("Well", "well"), ("NASA", "NASA")], initial=0)] * 3
    assert f1_interval(files, intrinsic=True) == (1.0, 1.0)
    low, high = f1_interval(files)
    assert high < 1.0


@pytest.mark.model
def test_evaluate_reports_intervals_in_total_and_per_language(dev_subtitles, dev_subtitles_ml,
                                                              evaluate_punctuated) -> None:
    paths = dev_subtitles[:3] + dev_subtitles_ml["es"][:2]
    out, results = evaluate_punctuated(paths)
    assert "interval over files (bootstrap" in out
    total = results["systems"]["subcase"]["punct"]
    low, high = total["f1_interval"]
    assert low <= total["f1"] <= high and high - low > 0
    for lang in ("en", "es"):
        entry = results["languages"][lang]["systems"]["subcase"]["punct"]
        low, high = entry["f1_interval"]
        assert low <= entry["f1"] <= high
        assert entry["intrinsic_f1_interval"][0] <= entry["intrinsic_f1"] <= entry["intrinsic_f1_interval"][1]
        assert f"{lang:8} punct" in out


def test_the_paired_difference_is_zero_for_one_system_and_signed_for_a_better_one() -> None:
    same = [_file(GOOD)] * 3 + [_file(BAD)] * 3
    assert f1_difference_interval(same, same) == (0.0, 0.0)
    # A is right on every file where B is wrong on some: A - B is positive on every resample
    better = [_file(GOOD)] * 6
    low, high = f1_difference_interval(better, same)
    assert 0.0 < low <= high
    assert f1_difference_interval([_file(GOOD)], [_file(BAD)]) is None


def test_the_paired_difference_needs_the_same_files() -> None:
    with pytest.raises(ValueError, match="3 and 2 files"):
        f1_difference_interval([_file(GOOD)] * 3, [_file(GOOD)] * 2)


@pytest.mark.model
def test_compare_models_bench_on_real_files(dev_subtitles, capsys, monkeypatch) -> None:
    """bench/compare_models.py, the shipped model against itself on three dev files: no difference."""
    script = Path(__file__).resolve().parents[2] / "bench" / "compare_models.py"
    models = Path(__file__).resolve().parents[2] / "models"
    monkeypatch.setattr(sys, "argv", [str(script), str(models), str(models), *map(str, dev_subtitles[:3])])
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("all "))
    assert row.split()[1] == "3" and row.count("+0.0 +0.0") == 2, row
