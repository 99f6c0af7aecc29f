"""Punctuation scoring (evaluation/punctuation.py): the marks of a cue, P/R/F1 per mark, the simulated
review's counts, and the ``punctuation`` objects of ``subcase evaluate`` and ``simulate-review`` on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from subcase.casing.marks import COMMA, EXCLAMATION, FULL_STOP, NONE, QUESTION, mark_after
from subcase.cli import main
from subcase.evaluation.punctuation import (MarkCounts, cue_end_full_stops, cue_marks, mark_intervals, mark_rows,
                                           review_counts, score_files, score_marks)
from subcase.subtitles import load
from subcase.subtitles.words import has_letters, tokenize


@pytest.mark.parametrize("text, expected", [
    ("Well, are you sure? Yes! I am.", [COMMA, NONE, NONE, QUESTION, EXCLAMATION, NONE, FULL_STOP]),
    # closing quotes and brackets are not marks; ; and : count as comma, ... and the ellipsis as full stop
    ('He said "stop." (Twice) then; this: so... well\u2026 "Why?"',
     [NONE, NONE, FULL_STOP, NONE, COMMA, COMMA, FULL_STOP, FULL_STOP, QUESTION]),
    # a dot inside a token is no mark; a word without letters is not scored ("5." is not counted)
    ("The U.S. costs 3.5 or 5. Fine", [NONE, NONE, FULL_STOP, NONE, NONE, NONE]),
    # markup: the mark is read in the visible text, tags skipped, entities and breaks as shown
    ("<i>Hi.</i>\n<i>Who,</i> me<b>?</b>", [FULL_STOP, COMMA, QUESTION]),
    ("don&#39;t go&#44; Tom&#x21;\\NRight", [NONE, NONE, COMMA, EXCLAMATION, NONE]),
    ("{\\an8}Up here.", [NONE, FULL_STOP]),
    ("<i>Hel</i>lo.", [NONE, FULL_STOP]),  # a word split by a tag is two scored words, as Cue.tokens has it
    ("", []),
])
def test_the_mark_after_each_scored_word(text, expected):
    assert cue_marks(text) == expected


def test_a_cue_has_one_mark_per_word_evaluation_scores(dev_subtitles, dev_subtitles_ml):
    """On every real dev cue the marks line up with the words ``evaluate`` scores, and where the cue has no
    markup they are ``mark_after``'s on its text."""
    paths = dev_subtitles + [p for ps in dev_subtitles_ml.values() for p in ps]
    marked = 0
    for path in paths:
        for cue in load(path).cues:
            marks = cue_marks(cue.text)
            assert len(marks) == sum(t.is_word and has_letters(t.text) for t in cue.tokens()), (path.name, cue.text)
            plain = cue.plain_text()
            if plain == cue.text:
                assert marks == [mark_after(plain, t.end) for t in tokenize(plain) if t.is_word and has_letters(t.text)]
            marked += sum(m != NONE for m in marks)
    assert marked > 1000


def test_counts_per_mark():
    n = MarkCounts()
    for ref, hyp in [(FULL_STOP, FULL_STOP), (COMMA, COMMA), (COMMA, NONE), (NONE, COMMA), (QUESTION, FULL_STOP),
                     (NONE, NONE), (EXCLAMATION, EXCLAMATION)]:
        n.add(ref, hyp)
    s = n.summary()
    assert s["words"] == 7
    comma, stop, question, bang = s["comma"], s["full stop"], s["question mark"], s["exclamation mark"]
    assert (comma["tp"], comma["fp"], comma["fn"]) == (1, 1, 1)  # one right, one extra, one missing
    assert comma["precision"] == comma["recall"] == comma["f1"] == 0.5
    # a wrong mark: a false positive of the mark written, a false negative of the reference's
    assert (stop["tp"], stop["fp"], stop["fn"]) == (1, 1, 0) and stop["precision"] == 0.5 and stop["recall"] == 1.0
    assert stop["f1"] == pytest.approx(2 / 3)
    assert (question["tp"], question["fp"], question["fn"], question["f1"]) == (0, 0, 1, 0.0)
    assert (bang["support"], bang["predicted"], bang["f1"]) == (1, 1, 1.0)
    micro = s["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"], micro["support"], micro["predicted"]) == (3, 2, 2, 5, 5)
    assert micro["precision"] == micro["recall"] == micro["f1"] == 0.6
    assert score_marks([[FULL_STOP, COMMA], [COMMA]], [[FULL_STOP, COMMA], [NONE]])["micro"]["recall"] == 2 / 3
    with pytest.raises(ValueError):
        score_marks([[FULL_STOP]], [[FULL_STOP, NONE]])
    rows = mark_rows("all", "nopunct", s)
    assert len(rows) == 5 and rows[-1].split()[2:] == ["micro", "60.0", "60.0", "60.0", "5", "5"]


def test_review_counts():
    ref = [COMMA, NONE, FULL_STOP, QUESTION, NONE]
    opened = [NONE, NONE, FULL_STOP, FULL_STOP, COMMA]  # three wrong: missing, wrong, extra
    final = [COMMA, NONE, FULL_STOP, FULL_STOP, COMMA]  # one put right
    visited = [True, True, False, True, False]          # two of the wrong ones visited, and one right one
    assert review_counts(ref, opened, final, visited) == {"initial_errors": 3, "visited": 2, "residual_errors": 2,
                                                           "reference_marks": sum(1 for m in ref if m)}
    assert review_counts(ref, ref, ref, [False] * 5) == {"initial_errors": 0, "visited": 0, "residual_errors": 0,
                                                           "reference_marks": sum(1 for m in ref if m)}
    with pytest.raises(ValueError):
        review_counts(ref, opened, final, visited[:4])


MODEL_DIR = Path(__file__).resolve().parents[2] / "models"


def _cues_with_words(path) -> list[str]:
    """The cues of a reference file that have a scored word."""
    return [cue.text for cue in load(path).cues if cue_marks(cue.text)]


def _reference_marks(path) -> dict[str, int]:
    """Each mark's count in a reference file, counted on its cues' visible text."""
    out = {COMMA: 0, FULL_STOP: 0, QUESTION: 0, EXCLAMATION: 0}
    for cue in load(path).cues:
        plain = cue.plain_text()
        for t in tokenize(plain):
            mark = mark_after(plain, t.end) if t.is_word and has_letters(t.text) else NONE
            if mark:
                out[mark] += 1
    return out


@pytest.mark.model
def test_evaluate_scores_the_marks_of_subcase_s_output(dev_subtitles, tmp_path, capsys):
    """With --punctuate auto, input that keeps its punctuation keeps every mark, and stripped input gets marks
    back from the model, scored per mark; with never, no punctuation is reported (nothing is restored), and
    auto is the default."""
    path = next(p for p in dev_subtitles if "evaluating-resources-overview" in p.name)
    expected = _reference_marks(path)
    assert all(expected[m] for m in (COMMA, FULL_STOP))
    out_json = tmp_path / "e.json"
    args = ["evaluate", str(path), "--no-per-cue", "--no-baselines", "--json", str(out_json)]
    assert main([*args, "--punctuate", "never"]) == 0
    assert "punctuation" not in json.loads(out_json.read_text(encoding="utf-8"))["systems"]["subcase"]["nopunct"]
    capsys.readouterr()
    assert main([*args, "--punctuate", "auto"]) == 0
    report = capsys.readouterr().out
    results = json.loads(out_json.read_text(encoding="utf-8"))
    assert main(args) == 0  # the default
    capsys.readouterr()
    assert json.loads(out_json.read_text(encoding="utf-8")) == results
    punct = results["systems"]["subcase"]["punct"]["punctuation"]
    stripped = results["systems"]["subcase"]["nopunct"]["punctuation"]
    assert punct["words"] == stripped["words"] == results["words"]
    assert punct["micro"]["f1"] == punct["micro"]["precision"] == punct["micro"]["recall"] == 1.0
    names = {COMMA: "comma", FULL_STOP: "full stop", QUESTION: "question mark", EXCLAMATION: "exclamation mark"}
    for mark, name in names.items():
        assert punct[name]["support"] == stripped[name]["support"] == expected[mark]
        assert stripped[name]["tp"] + stripped[name]["fn"] == expected[mark]
    assert stripped["micro"]["support"] == sum(expected.values())
    # the model restores marks, most of the full stops among them (a coarse floor: no near-tie decides it)
    assert stripped["full stop"]["recall"] >= 0.4 and stripped["full stop"]["precision"] >= 0.4
    # the casing scores are still there, and per language the same object
    assert "f1" in results["systems"]["subcase"]["nopunct"]
    assert results["languages"]["en"]["systems"]["subcase"]["nopunct"]["punctuation"] == stripped
    assert "subcase's punctuation" in report
    assert f"all      punct    micro             100.0  100.0  100.0 {sum(expected.values()):8d}" in report


@pytest.mark.model
def test_simulate_review_counts_wrong_and_missing_marks(dev_subtitles, tmp_path):
    """With --punctuate auto (the default), the marks of the file as the editor opens it are counted against the
    reference's; with never nothing is counted (nothing is restored)."""
    path = next(p for p in dev_subtitles if "perspectives_keyboard" in p.name)
    marks = sum(_reference_marks(path).values())
    assert marks > 0
    out = tmp_path / "sim.json"

    def run(*args: str) -> dict:
        assert main(["simulate-review", str(path), *args, "--json", str(out), "--per-file", "-q"]) == 0
        return json.loads(out.read_text(encoding="utf-8"))

    assert "punctuation" not in run("--strip-punct", "--punctuate", "never")["total"]
    data = run("--punctuate", "auto")  # punctuated input: auto restores nothing, every mark is right
    assert data["total"]["punctuation"] == {"initial_errors": 0, "visited": 0, "residual_errors": 0, "changes": 0,
                                            "reference_marks": 12}
    data = run("--strip-punct", "--punctuate", "auto")
    total, one = data["total"]["punctuation"], data["files"][path.name]["punctuation"]
    assert total == one
    # restored marks put some right: fewer errors than marks stripped (a coarse bound, no near-tie decides it)
    assert 0 < total["initial_errors"] < marks
    assert 0 < total["visited"] <= min(total["initial_errors"], data["total"]["visited"])
    # the editor sets every wrong mark it comes to, and only those; the others stay wrong
    assert total["changes"] == total["visited"]
    assert total["residual_errors"] == total["initial_errors"] - total["visited"] < total["initial_errors"]


@pytest.mark.model
def test_a_series_restores_and_counts_marks_file_after_file(dev_subtitles, tmp_path):
    """``--series`` restores marks as a single review does (the default, auto): each file's rows, with and
    without the profile, count the marks the editor opens and fixes; never counts none."""
    names = ("perspectives_keyboard", "evaluating-resources-overview")
    paths = [next(p for p in dev_subtitles if key in p.name) for key in names]
    out = tmp_path / "series.json"

    def run(*args: str) -> dict:
        assert main(["simulate-review", *map(str, paths), "--series", "--strip-punct", *args,
                     "--json", str(out), "-q"]) == 0
        return json.loads(out.read_text(encoding="utf-8"))

    data = run()
    for row in data["files"]:
        for key in ("with_profile", "without_profile"):
            counts = row[key]["punctuation"]
            assert counts["initial_errors"] > 0
            assert counts["residual_errors"] == counts["initial_errors"] - counts["visited"]
    assert data["with_profile"]["punctuation"] == data["files"][1]["with_profile"]["punctuation"]  # from file 2 on
    assert all("punctuation" not in row["with_profile"] for row in run("--punctuate", "never")["files"])


def test_the_cue_end_baseline_puts_a_full_stop_where_a_cue_ends_without_a_mark():
    assert cue_end_full_stops([["", ""], ["", ","], [], ["?", ""]]) == [["", "."], ["", ","], [], ["?", "."]]


def test_mark_intervals_resample_files():
    files = [([["", "."]], [["", "."]]), ([["", "?"]], [["", "."]]), ([[",", "."]], [["", "."]])]
    scored = score_files(files)
    assert scored["full stop"]["tp"] == 2 and scored["full stop"]["fp"] == 1
    low, high = scored["intervals"]["full stop"]
    assert 0.0 <= low <= scored["full stop"]["f1"] <= high <= 1.0
    assert scored["intervals"]["question mark"] == (0.0, 0.0)
    assert mark_intervals(files[:1])["full stop"] is None  # one file: nothing to resample


@pytest.mark.model
def test_evaluate_reports_per_mark_intervals_and_the_baseline_rows(dev_subtitles, tmp_path, capsys):
    """Issue 55: on stripped input, each mark's F1 comes with its interval over files, beside the rule
    "full stop at every cue end" and another model's marks (here the shipped model itself, so its row
    equals subcase's)."""
    paths = [p for p in dev_subtitles if "perspectives_" in p.name][:3]
    out_json = tmp_path / "e.json"
    assert main(["evaluate", *map(str, paths), "--no-per-cue", "--no-baselines", "--strip-punct",
                 "--punctuate", "auto", "--baseline-model", str(MODEL_DIR), "--json", str(out_json)]) == 0
    report = capsys.readouterr().out
    results = json.loads(out_json.read_text(encoding="utf-8"))
    subcase = results["systems"]["subcase"]["nopunct"]["punctuation"]
    baselines = results["punctuation_baselines"]
    rule = baselines["full stop at every cue end"]["nopunct"]
    (other_name, other), = [(k, v["nopunct"]) for k, v in baselines.items() if k.endswith("(baseline)")]
    # the rule writes a full stop at every cue end and nothing else
    cue_ends = sum(1 for p in paths for cue in _cues_with_words(p))
    assert rule["full stop"]["predicted"] == rule["micro"]["predicted"] == cue_ends
    assert rule["full stop"]["support"] == subcase["full stop"]["support"]
    assert other["micro"] == subcase["micro"]
    for scored in (subcase, rule, other):
        for name in ("full stop", "question mark", "comma", "exclamation mark", "micro"):
            span = scored["intervals"][name]
            assert span is not None and span[0] <= scored[name]["f1"] <= span[1]
    assert "per-mark F1 (%) with its 90% interval over files" in report
    rule_row = next(line for line in report.splitlines() if line.startswith("full stop at every cue end"))
    low, high = rule["intervals"]["full stop"]
    assert f"{100 * rule['full stop']['f1']:5.1f} {100 * low:4.1f}-{100 * high:4.1f}" in rule_row
    assert any(line.startswith(other_name) for line in report.splitlines())
