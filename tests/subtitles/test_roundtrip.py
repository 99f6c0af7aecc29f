"""Unedited saves are byte-identical; casing edits change letter case only."""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.subtitles import Document, load, loads

from .conftest import GOOD_FIXTURES, assert_only_case_changed, dev_files, needs_dev, recase_word


def _recase_all(doc: Document, how) -> int:
    changed = 0
    for cue in doc.cues:
        for i, word in enumerate(cue.words()):
            new = how(word.text)
            if len(new) == len(word.text) and new.lower() == word.text.lower():
                recase_word(doc, cue.index, i, new)
                changed += new != word.text
    return changed


def _check_file(path: Path) -> None:
    data = path.read_bytes()
    doc = load(path)
    assert doc.to_bytes() == data
    original = doc.copy()
    assert _recase_all(doc, str.lower) > 0 or not doc.cues
    lowered = doc.to_bytes()
    assert_only_case_changed(data, lowered, doc.encoding)
    # Lowercased output reads back with the same cue structure.
    reread = loads(lowered, path.name)
    assert [(c.start_ms, c.end_ms, c.identifier, c.settings) for c in reread.cues] == \
        [(c.start_ms, c.end_ms, c.identifier, c.settings) for c in original.cues]
    # Restoring the original case restores the original bytes.
    for cue, orig in zip(doc.cues, original.cues):
        for i, word in enumerate(orig.words()):
            recase_word(doc, cue.index, i, word.text)
    assert doc.to_bytes() == data


@pytest.mark.parametrize("path", GOOD_FIXTURES, ids=lambda p: p.name)
def test_fixture_round_trip_and_case_only(path: Path) -> None:
    _check_file(path)


@needs_dev
@pytest.mark.parametrize("path", dev_files(), ids=lambda p: p.name[:50])
def test_dev_subtitles_round_trip_and_case_only(path: Path) -> None:
    _check_file(path)


@needs_dev
def test_dev_subtitles_present() -> None:
    assert len(dev_files()) >= 20


def test_uppercase_changes_only_letters_in_cue_text() -> None:
    path = next(p for p in GOOD_FIXTURES if p.name == "features.vtt")
    data = path.read_bytes()
    doc = load(path)
    _recase_all(doc, str.upper)
    out = doc.to_bytes()
    assert_only_case_changed(data, out, "utf-8")
    # Header, STYLE, REGION, NOTE, identifiers, settings and markup untouched.
    for kept in (b"WEBVTT - Conformance: header text", b"X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000",
                 b"::cue(.loud) { font-weight: bold; }", b"id:fred", b"NOTE a comment between cues",
                 b"intro\n", b"line:85% align:middle", b"<v Roger Bingham>", b"<c.yellow.bg_blue>",
                 b"<00:06.750>", b"&amp;", b"&nbsp;", b"&#xE9;", b"<rt>", b"<lang en-GB>"):
        assert kept in out
    assert b"WE ARE IN NEW YORK CITY" in out and b"FISH &amp; CHIPS" in out


def test_unterminated_last_line_survives_edits() -> None:
    path = next(p for p in GOOD_FIXTURES if p.name == "malformed.srt")
    doc = load(path)
    doc.set_cue_text(len(doc.cues) - 1, "Replaced\ntext")
    out = doc.to_bytes()
    assert out.endswith(b"00:00:24,000\nReplaced\ntext")
    doc.set_cue_text(len(doc.cues) - 1, "The last cue has no final newline.")
    assert doc.to_bytes() == path.read_bytes()


def test_crlf_preserved_when_line_count_changes() -> None:
    path = next(p for p in GOOD_FIXTURES if p.name == "markup_crlf.srt")
    doc = load(path)
    doc.set_cue_text(1, "one\ntwo\nthree")
    out = doc.to_bytes()
    assert b"one\r\ntwo\r\nthree\r\n\r\n3\r\n" in out
    assert b"\n" not in out.replace(b"\r\n", b"")
