"""What pysrt and webvtt-py lose or alter, that subcase keeps.

They are the project's reference parsers: on well-formed files our timings,
identifiers, settings and text must agree with theirs (cross-check), and
where they drop or rewrite something the tests below pin it down next to
the proof that subcase keeps it.  At run time they check every saved file
(``subtitles.compat``): the last tests here.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pysrt
import pytest
import webvtt

from subcase.subtitles import formats, load, save
from subcase.subtitles.compat import mismatch
from subcase.subtitles.saving import check_readers

from .conftest import FIXTURES, dev_files, needs_dev


def _pysrt_bytes(path: Path, encoding: str = "utf-8") -> bytes:
    subs = pysrt.open(str(path), encoding=encoding)
    out = io.StringIO()
    subs.write_into(out)
    return out.getvalue().encode(encoding)


# -- cross-checks on well-formed files ---------------------------------------

@pytest.mark.parametrize("name", ["markup.srt", "markup_crlf.srt"])
def test_srt_agrees_with_pysrt(name: str) -> None:
    ours = load(FIXTURES / name)
    theirs = pysrt.open(str(FIXTURES / name), encoding="utf-8")
    assert [(c.identifier, c.start_ms, c.end_ms, c.text) for c in ours.cues] == \
        [(str(s.index), s.start.ordinal, s.end.ordinal, s.text) for s in theirs]


def _vtt_view(path: Path):
    ours = load(path)
    theirs = webvtt.read(str(path))
    return ours, theirs


@pytest.mark.parametrize("path", [FIXTURES / "features.vtt"] + [p for p in dev_files() if p.suffix == ".vtt"],
                         ids=lambda p: p.name[:50])
def test_vtt_agrees_with_webvtt_py(path: Path) -> None:
    ours, theirs = _vtt_view(path)
    assert [(c.identifier or None, c.start_ms, c.end_ms, c.settings, c.text) for c in ours.cues] == \
        [(t.identifier or None, _ms(t.start),
          _ms(t.end), str(t.settings) if t.settings else "", t.raw_text) for t in theirs]


def _ms(stamp: str) -> int:
    h, m, s = stamp.split(":")
    return round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000)


# -- what pysrt loses -------------------------------------------------------

def test_pysrt_adds_a_blank_line_we_keep_exact_bytes() -> None:
    for name, eol in (("markup.srt", b"\n"), ("markup_bom.srt", b"\n"), ("markup_crlf.srt", b"\r\n")):
        data = (FIXTURES / name).read_bytes()
        assert _pysrt_bytes(FIXTURES / name) == data + eol
        assert load(FIXTURES / name).to_bytes() == data


def test_pysrt_normalises_malformed_timestamps_we_keep_them() -> None:
    out = _pysrt_bytes(FIXTURES / "malformed.srt")
    assert b"0:00:03,00 --> 0:00:04,00" not in out
    assert b"0:00:03,00 --> 0:00:04,00" in load(FIXTURES / "malformed.srt").to_bytes()


def test_pysrt_mangles_malformed_cues_we_keep_them() -> None:
    theirs = [s.text for s in pysrt.open(str(FIXTURES / "malformed.srt"), encoding="utf-8")]
    # No blank line before cue 6: pysrt swallows it, timing line and all, into cue 5.
    assert any("00:00:11,000 -->" in t for t in theirs)
    # A blank line inside a cue: pysrt drops the rest of the cue.
    assert "A blank line" in theirs and not any("inside this cue." in t for t in theirs)
    ours = load(FIXTURES / "malformed.srt")
    assert [c.text for c in ours.cues][4:7] == [
        "No blank line follows this cue.", "Extra blank lines follow this cue.",
        "A blank line\n\ninside this cue."]
    assert b"Subtitles ripped by someone" in ours.to_bytes()  # stray text kept verbatim


def test_pysrt_cannot_open_cp1252_by_itself_we_detect_it() -> None:
    with pytest.raises(UnicodeDecodeError):
        pysrt.open(str(FIXTURES / "legacy_cp1252.srt"))
    assert load(FIXTURES / "legacy_cp1252.srt").encoding == "cp1252"


# -- what webvtt-py loses -----------------------------------------------------

def test_webvtt_py_text_drops_markup_we_keep_it() -> None:
    ours, theirs = _vtt_view(FIXTURES / "features.vtt")
    assert theirs.captions[0].text == "We are in New York City"  # <v Roger Bingham> gone
    assert theirs.captions[1].text == "It's a blue day"  # <v.loud Esme>, <c.yellow.bg_blue> gone
    assert theirs.captions[2].text == "Karaoke one two three"  # inline timestamps gone
    assert theirs.captions[3].text == "Tokyotōkyō and colour"  # ruby text run into the base
    assert ours.cues[1].text == "<v.loud Esme>It's a <c.yellow.bg_blue>blue</c> <c>day</c></v>"
    assert ours.plain_text(3) == "Tokyotōkyō and colour"


def test_webvtt_py_rewrites_the_file_we_keep_it() -> None:
    path = FIXTURES / "features.vtt"
    source = path.read_text("utf-8")
    content = webvtt.read(str(path)).content
    assert content != source
    # STYLE and REGION come back in another order.
    assert content.index("REGION") < content.index("STYLE") and source.index("STYLE") < source.index("REGION")
    assert load(path).to_bytes() == path.read_bytes()


def test_webvtt_py_drops_a_cue_without_blank_line_after_header() -> None:
    theirs = webvtt.read(str(FIXTURES / "malformed.vtt"))
    ours = load(FIXTURES / "malformed.vtt")
    assert len(theirs.captions) < len(ours.cues) == 3
    assert ours.cues[0].start_ms == 1000


@needs_dev
def test_dev_srt_agrees_with_pysrt() -> None:
    for path in (p for p in dev_files() if p.suffix == ".srt"):
        ours = load(path)
        theirs = pysrt.open(str(path), encoding=ours.encoding)
        assert [(c.start_ms, c.end_ms, c.text) for c in ours.cues] == \
            [(s.start.ordinal, s.end.ordinal, s.text) for s in theirs]


# -- the check on save: would players built on these parsers read our file? ---

@pytest.mark.parametrize("name, parser, theirs, ours", [("malformed.srt", "pysrt", 12, 13),
                                                         ("malformed.vtt", "webvtt-py", 2, 3)])
def test_save_warns_when_a_reference_parser_reads_other_cues(tmp_path, name, parser, theirs, ours) -> None:
    doc = load(FIXTURES / name)
    saved = save(doc, tmp_path / name)
    assert saved.path.read_bytes() == (FIXTURES / name).read_bytes()  # still written, unchanged
    assert saved.warnings == [f"{parser} reads {theirs} cue(s) where the file has {ours}; "
                              "players built on it may misread this file"]


@pytest.mark.parametrize("name", ["markup.srt", "markup_crlf.srt", "features.vtt", "legacy_cp1252.srt",
                                  "utf16le_bom.srt"])
def test_well_formed_files_save_without_warnings(tmp_path, name) -> None:
    doc = load(FIXTURES / name)
    assert save(doc, tmp_path / name).warnings == []
    other = "vtt" if doc.format == "srt" else "srt"
    assert save(doc, tmp_path / f"x.{other}").warnings == []  # converted, checked by the other parser


def test_timing_the_parser_reads_differently_is_reported() -> None:
    ours = [(1000, 2000), (3000, 4000)]
    assert mismatch(ours, [(1000, 2000), (3000, 4000)], "pysrt") is None
    assert mismatch(ours, [(1000, 2000), (3000, 4500)], "pysrt") == (
        "pysrt reads cue 2 at 3000-4500 ms where the file has 3000-4000 ms; "
        "players built on it may misread this file")


def test_a_reference_parser_that_fails_only_warns(tmp_path) -> None:
    def broken(text: str):
        raise ValueError("unexpected token")

    doc = load(FIXTURES / "markup.srt")
    written = check_readers(doc, doc.render(), dataclasses.replace(formats.SRT, reference_timings=broken))
    assert written == ["pysrt cannot read this file (ValueError: unexpected token); "
                       "players built on it may not read it either"]
