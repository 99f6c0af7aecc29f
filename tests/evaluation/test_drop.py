"""``--drop P``: mixed input (runs of cues lower-cased without punctuation, the rest as written)."""

from __future__ import annotations

import json

import pytest

from subcase.cli import main
from subcase.evaluation.drop import dropped_cues


def test_dropped_runs_cover_the_share_and_repeat_with_the_seed():
    words = [5, 0, 7, 3, 9, 4, 6, 2, 8, 5] * 10
    chosen = dropped_cues(words, 0.3, "film.srt")
    covered = sum(words[c] for c in chosen)
    assert 0.3 * sum(words) <= covered < 0.3 * sum(words) + max(words)  # the last run is cut at the share
    assert chosen == dropped_cues(words, 0.3, "film.srt")               # repeatable
    assert chosen != dropped_cues(words, 0.3, "other.srt")              # each file its own runs
    assert chosen != dropped_cues(words, 0.3, "film.srt", seed=1)
    assert dropped_cues(words, 0.0, "film.srt") == set()
    assert dropped_cues(words, 1.0, "film.srt") == set(range(len(words)))


@pytest.mark.parametrize("value", ["1.5", "-0.1", "lots"])
def test_a_bad_share_is_refused_clearly(value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["evaluate", "x.srt", "--drop", value])
    assert exc.value.code == 2
    assert "expected a share of the words from 0 to 1" in capsys.readouterr().err


def test_evaluate_drop_scores_the_whole_and_each_part(engine, dev_subtitles, tmp_path, capsys):
    paths = [p for p in dev_subtitles if "involving-users" in p.name or "perspectives_keyboard" in p.name]
    out = tmp_path / "e.json"
    assert main(["evaluate", *map(str, paths), "--drop", "0.3", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["drop"]["share"] == 0.3 and data["drop"]["dropped_words"] > 0
    auto, restore = data["systems"]["subcase"], data["systems"]["subcase (restore)"]
    assert set(auto) == set(restore) == {"mixed", "dropped", "kept"}
    # the parts' words add up to the whole
    for system in (auto, restore):
        assert system["dropped"]["words"] + system["kept"]["words"] == system["mixed"]["words"]
    # what was left as written comes back as written; restore recases it from scratch
    assert auto["kept"]["f1"] >= 0.98 and auto["kept"]["f1"] > restore["kept"]["f1"]
    report = capsys.readouterr().out
    assert "mixed input:" in report and "subcase (restore)" in report


def test_simulate_review_takes_mode_and_drop(engine, dev_subtitles, tmp_path):
    path = next(p for p in dev_subtitles if "involving-users" in p.name)
    results = {}
    for mode in ("auto", "restore"):
        out = tmp_path / f"{mode}.json"
        assert main(["simulate-review", str(path), "--drop", "0.3", "--mode", mode, "-q", "--json", str(out)]) == 0
        results[mode] = json.loads(out.read_text(encoding="utf-8"))["total"]
    # auto keeps the 70% as written: fewer errors to start from than restore
    assert results["auto"]["initial_errors"] < results["restore"]["initial_errors"]
