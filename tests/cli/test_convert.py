"""``subcase convert`` end to end with the real model and real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from subcase.cli import main
from subcase.subtitles import load

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"


def only_case_differs(a: bytes, b: bytes) -> bool:
    return len(a) == len(b) and a.lower() == b.lower()


def test_convert_example(engine, tmp_path, capsys):
    before = EXAMPLE.read_bytes()
    rc = main(["convert", str(EXAMPLE), "-o", str(tmp_path / "out"), "-q"])
    assert rc == 0
    assert EXAMPLE.read_bytes() == before  # input untouched
    out = (tmp_path / "out" / EXAMPLE.name).read_bytes()
    assert only_case_differs(before, out)
    text = out.decode()
    assert "NASA" in text and "Neil Armstrong" in text and "Houston" in text
    assert "<i>" in text and "{\\an8}" in text  # markup survives untouched
    assert "converted 1 file(s), 0 failed" in capsys.readouterr().out


def test_convert_folder_with_bad_file_continues(engine, tmp_path, capsys):
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "good.srt").write_bytes(EXAMPLE.read_bytes())
    (src / "bad.srt").write_bytes(b"this is not a subtitle file at all\njust some words\n")
    (src / "notes.txt").write_text("ignored")
    rc = main(["convert", str(src), "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert rc == 1
    assert (tmp_path / "out" / "sub" / "good.srt").is_file()  # the folder's tree, mirrored
    assert not (tmp_path / "out" / "bad.srt").exists()
    failed = [line for line in err.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and "bad.srt" in failed[0] and "Traceback" not in err


def test_convert_missing_path_and_format_switch(engine, tmp_path, capsys):
    rc = main(["convert", str(EXAMPLE), str(tmp_path / "nope.srt"), "-o", str(tmp_path / "out"),
               "--format", "vtt", "-q"])
    assert rc == 1
    assert "no such file" in capsys.readouterr().err
    doc = load(tmp_path / "out" / "lowercase-example.vtt")
    assert doc.format == "vtt" and len(doc.cues) == 6


def test_details_jsonl(engine, tmp_path):
    details = tmp_path / "details.jsonl"
    assert main(["convert", str(EXAMPLE), "-o", str(tmp_path / "out"), "--details", str(details), "-q"]) == 0
    rows = [json.loads(line) for line in details.read_text().splitlines()]
    assert rows and {"file", "cue", "word", "input", "output", "tag", "probs", "highlighted"} <= rows[0].keys()
    assert all(abs(sum(r["probs"].values()) - 1) < 1e-3 for r in rows)
    nasa = next(r for r in rows if r["input"] == "nasa")
    assert nasa["output"] == "NASA" and nasa["tag"] == "U"


@pytest.mark.parametrize("mode", ["restore", "caps", "keep"])
def test_modes_from_cli(engine, tmp_path, mode):
    src = tmp_path / "mixed.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:02,000\nWE MET JOHN IN PARIS.\n\n"
                   "2\n00:00:03,000 --> 00:00:04,000\nthen iPhone sales in paris grew.\n", encoding="utf-8")
    assert main(["convert", str(src), "-o", str(tmp_path / mode), "--mode", mode, "-q"]) == 0
    out = (tmp_path / mode / "mixed.srt").read_text()
    if mode == "caps":
        assert "We met John in Paris." in out and "then iPhone sales in paris grew." in out
    elif mode == "keep":
        assert "WE MET JOHN IN PARIS." in out and "iPhone" in out and "Paris grew" in out
    else:
        assert "We met John in Paris." in out and "Then" in out


def test_version_and_no_traceback_for_missing_output_parent(tmp_path):
    out = subprocess.run([sys.executable, "-m", "subcase", "--version"], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.returncode == 0 and out.stdout.startswith("subcase ")


def test_convert_warns_when_pysrt_would_misread_the_output(engine, tmp_path, capsys):
    # the scanner keeps a cue with no index and a blank line inside a cue; pysrt does not
    src = ROOT / "tests" / "fixtures" / "subtitles" / "malformed.srt"
    rc = main(["convert", str(src), "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert rc == 0  # written: a warning, not a failure
    out = tmp_path / "out" / "malformed.srt"
    assert only_case_differs(src.read_bytes(), out.read_bytes())
    assert f"warning {out}: pysrt reads 12 cue(s) where the file has 13; " \
           "players built on it may misread this file" in err.splitlines()


def test_convert_keeps_a_misnamed_webvtt_file_as_webvtt(engine, tmp_path, capsys):
    """The output is named as the input and holds what the input holds: no silent conversion by the name."""
    src = tmp_path / "talk.srt"
    src.write_text("WEBVTT\n\nNOTE keep me\n\nintro\n00:00:01.000 --> 00:00:03.000 align:start\n"
                   "<v Bob>hello there, <c.red>we went to paris</c>\n")
    rc = main(["convert", str(src), "-o", str(tmp_path / "out"), "-v"])
    assert rc == 0
    out = (tmp_path / "out" / "talk.srt").read_bytes()
    assert only_case_differs(src.read_bytes(), out) and b"Paris" in out
    assert "line 1: the file holds WebVTT though its name ends in .srt" in capsys.readouterr().err


def test_convert_leaves_microdvd_codes_as_they_are(engine, tmp_path):
    src = tmp_path / "film.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:03,000\n{Y:i}i think so. {y:b}{c:$0000ff}we went to paris.\n")
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "-q"]) == 0
    out = (tmp_path / "out" / "film.srt").read_text()
    assert "{Y:i}I think so. {y:b}{c:$0000ff}We went to Paris." in out
