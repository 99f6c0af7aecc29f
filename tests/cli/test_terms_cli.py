"""``--terms FILE`` on convert and simulate-review, and ``subcase profile terms``: real model, real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.cli import main
from subcase.review.profiles import store as profile_store

TALK = ("1\n00:00:01,000 --> 00:00:02,500\nwe checked the pages with qualweb first.\n\n"
        "2\n00:00:03,000 --> 00:00:04,500\nthen qualweb found the missing labels.\n")


def test_convert_with_a_capfile_writes_its_terms(tmp_path, engine):
    src = tmp_path / "talk.srt"
    src.write_text(TALK, encoding="utf-8")
    caps = tmp_path / "dict_talks.txt"
    caps.write_text("# tools\nQualWeb\n", encoding="utf-8")
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--terms", str(caps), "-q"]) == 0
    text = (tmp_path / "out" / "talk.srt").read_text(encoding="utf-8")
    assert text.count("QualWeb") == 2  # a word the model barely knows: written as the list writes it


def test_a_bad_term_list_stops_convert_before_any_output(tmp_path, engine, capsys):
    src = tmp_path / "talk.srt"
    src.write_text(TALK, encoding="utf-8")
    bad = tmp_path / "names.xml"
    bad.write_text("<names><name>QualWeb</name>", encoding="utf-8")
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--terms", str(bad), "-q"]) == 1
    err = capsys.readouterr().err
    assert "names.xml" in err and "invalid XML" in err and "Traceback" not in err
    assert not (tmp_path / "out" / "talk.srt").exists()


def test_simulate_review_with_terms(tmp_path, engine, capsys):
    src = tmp_path / "talk.srt"
    ref = TALK.replace("qualweb", "QualWeb").replace("we checked", "We checked").replace("then", "Then")
    src.write_text(ref, encoding="utf-8")  # the reference
    terms = tmp_path / "terms.txt"
    terms.write_text("QualWeb\n", encoding="utf-8")
    assert main(["simulate-review", str(src), "-q", "--no-learning"]) == 0
    without = capsys.readouterr().out
    assert main(["simulate-review", str(src), "-q", "--no-learning", "--terms", str(terms)]) == 0
    with_terms = capsys.readouterr().out
    # the list fixed both, counted as the app's own fixes, and nothing is left wrong
    row = next(line for line in with_terms.splitlines() if line.startswith("total")).split()
    assert row[-4:] == ["2", "0", "0", "0.00%"]
    assert without != with_terms


@pytest.mark.model  # stores the terms under the shipped model's version
def test_profile_terms_imports_a_subtitle_edit_names_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(tmp_path / "data"))
    names = tmp_path / "en_names.xml"
    names.write_text('<?xml version="1.0" encoding="utf-8"?>\n<names>\n  <name>Buenos Aires</name>\n'
                     '  <name>QualWeb</name>\n  <blacklist><name>Grant</name></blacklist>\n</names>\n',
                     encoding="utf-8")
    assert main(["profile", "terms", "W3C talks", str(names)]) == 0
    assert "en_names.xml (subtitle-edit): 2 terms, 2 new or changed" in capsys.readouterr().out
    p = profile_store.load("W3C talks")
    assert {k: (e.form, e.source) for k, e in p.entries["term"].items()} == {
        "buenos aires": ("Buenos Aires", "en_names.xml"), "qualweb": ("QualWeb", "en_names.xml")}
    assert main(["profile", "terms", "W3C talks", str(tmp_path / "missing.txt")]) == 1
    assert "missing.txt: no such term list" in capsys.readouterr().err
    assert Path(tmp_path / "data" / "profiles" / "W3C talks.json").is_file()
