"""``evaluate`` and ``simulate-review`` skip a reference file they cannot read and score the rest.

Real files from tests/fixtures/subtitles: two readable references (human-cased text with markup) and
two that cannot be used (an empty file, a binary one).  Before, the first bad file stopped the run with
no scores at all.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from subcase.cli import main
from subcase.casing.restoring import Punctuate
from subcase.evaluation.simulate import SimulateOptions, prepare, simulate

NEVER = SimulateOptions(punctuate=Punctuate.NEVER)  # the input cased with the marks it has, none restored

pytestmark = pytest.mark.model  # evaluate and simulate-review run the shipped model

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "subtitles"
GOOD = ("markup.srt", "features.vtt")
BAD = {"empty.srt": "the file is empty", "binary.srt": "contains binary data"}


def _folder(tmp_path: Path, names) -> Path:
    folder = tmp_path / "refs"
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(FIXTURES / name, folder / name)
    return folder


def _check_skipped(err: str, folder: Path, skipped: list[dict]) -> None:
    assert "Traceback" not in err
    assert sorted(Path(s["file"]).name for s in skipped) == sorted(BAD)
    for s in skipped:
        name = Path(s["file"]).name
        assert BAD[name] in s["reason"] and str(folder) not in s["reason"]  # the name once, in "file"
        assert f"SKIPPED {folder / name}: {s['reason']}" in err.splitlines()


def test_evaluate_skips_unreadable_references_and_scores_the_rest(tmp_path, capsys):
    folder = _folder(tmp_path, GOOD + tuple(BAD))
    out = tmp_path / "e.json"
    rc = main(["evaluate", str(folder), "--no-baselines", "--no-per-cue", "--punct-only", "--json", str(out)])
    captured = capsys.readouterr()
    assert rc == 1  # scored, but not every file: as convert with a failed file
    data = json.loads(out.read_text())
    assert data["files"] == 2 and data["words"] > 0
    assert 0.0 < data["systems"]["subcase"]["punct"]["f1"] <= 1.0
    _check_skipped(captured.err, folder, data["skipped"])
    assert captured.out.splitlines()[1] == "2 file(s) skipped, not scored:"

    # the same two readable files alone: the same scores, status 0
    alone = _folder(tmp_path / "alone", GOOD)
    out2 = tmp_path / "e2.json"
    assert main(["evaluate", str(alone), "--no-baselines", "--no-per-cue", "--punct-only", "--json", str(out2)]) == 0
    data2 = json.loads(out2.read_text())
    assert data2["skipped"] == [] and data2["systems"] == data["systems"]


def test_simulate_review_skips_unreadable_references(tmp_path, capsys):
    folder = _folder(tmp_path, GOOD + tuple(BAD))
    out = tmp_path / "s.json"
    assert main(["simulate-review", str(folder), "--per-file", "--json", str(out), "-q"]) == 1
    captured = capsys.readouterr()
    data = json.loads(out.read_text())
    assert sorted(data["files"]) == sorted(GOOD)
    assert data["total"]["words"] > 0 and data["total"]["visited"] > 0
    _check_skipped(captured.err, folder, data["skipped"])
    assert "2 file(s) skipped, not scored:" in captured.out


def test_simulate_review_series_leaves_an_unreadable_file_out_of_the_series(tmp_path, capsys):
    folder = _folder(tmp_path, GOOD + tuple(BAD))
    out = tmp_path / "series.json"
    assert main(["simulate-review", str(folder), "--series", "-q", "--json", str(out)]) == 1
    captured = capsys.readouterr()
    data = json.loads(out.read_text())
    assert [f["file"] for f in data["files"]] == sorted(GOOD)
    _check_skipped(captured.err, folder, data["skipped"])


def test_nothing_readable_is_one_line_and_status_1(tmp_path, capsys):
    folder = _folder(tmp_path, tuple(BAD))
    for argv in (["evaluate", str(folder), "--no-baselines"], ["simulate-review", str(folder), "-q"],
                 ["simulate-review", str(folder), "--series", "-q"]):
        assert main(argv) == 1
        captured = capsys.readouterr()
        assert captured.out == "" and "Traceback" not in captured.err
        assert captured.err.splitlines()[-1] == "subcase: none of the reference files could be read"


def test_a_reference_whose_words_do_not_line_up_is_skipped_not_raised(engine):
    """The simulated editor checks that the cased words are the reference's; a file where they are not
    (here the reference's words of one cue, changed after casing) is reported, and the others scored."""
    good = prepare(FIXTURES / "markup.srt", engine, NEVER)
    other = prepare(FIXTURES / "features.vtt", engine, NEVER)
    words = [list(ws) for ws in other.ref_words]
    c = next(i for i, ws in enumerate(words) if ws)
    words[c] = words[c] + ["extra"]
    broken = dataclasses.replace(other, ref_words=words)
    lines: list[str] = []
    result = simulate([good, broken], engine, None, log=lines.append)
    assert list(result["files"]) == [good.name]
    assert result["skipped"] == [{"file": other.name,
                                  "reason": f"cue {c + 1}: the cased words do not line up with the reference"}]
    assert lines == [f"SKIPPED {other.name}: cue {c + 1}: the cased words do not line up with the reference"]
