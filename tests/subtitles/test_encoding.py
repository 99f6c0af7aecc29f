"""Encodings are detected, kept on save, and changed only on request."""

from __future__ import annotations

import pytest

from subcase.subtitles import SubtitleError, load, loads, save

from .conftest import FIXTURES, recase_word

EXPECTED = {
    "markup.srt": ("utf-8", False, "\n"),
    "markup_bom.srt": ("utf-8", True, "\n"),
    "markup_crlf.srt": ("utf-8", False, "\r\n"),
    "markup_cr.srt": ("utf-8", False, "\r"),
    "features_crlf_bom.vtt": ("utf-8", True, "\r\n"),
    "legacy_cp1252.srt": ("cp1252", False, "\r\n"),
    "utf16le_bom.srt": ("utf-16-le", True, "\r\n"),
    "utf16be_bom.vtt": ("utf-16-be", True, "\n"),
    "utf16le_nobom.srt": ("utf-16-le", False, "\n"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_detected(name: str) -> None:
    doc = load(FIXTURES / name)
    assert (doc.encoding, doc.bom, doc.newline) == EXPECTED[name]


def test_legacy_text_decodes_to_the_right_letters() -> None:
    doc = load(FIXTURES / "legacy_cp1252.srt")
    assert doc.cues[0].text == "Café crème, s’il vous plaît – “naïve” déjà vu…"
    latin = load(FIXTURES / "legacy_latin1.srt")
    # A Latin-1 file without 0x80-0x9F bytes is also valid cp1252, its superset.
    assert latin.encoding in ("cp1252", "latin-1", "iso8859-1")
    assert latin.cues[1].text == "Señor Müller and his fiancée in Zürich."


def test_legacy_casing_edit_keeps_code_page() -> None:
    path = FIXTURES / "legacy_cp1252.srt"
    doc = load(path, "cp1252")  # sure of the page: a short file's guess would keep "À" (test_encoding_guess.py)
    recase_word(doc, 1, 0, "à")
    out = doc.to_bytes()
    assert out == path.read_bytes().replace(b"\xc0 bient", b"\xe0 bient")


def test_save_in_another_encoding(tmp_path) -> None:
    doc = load(FIXTURES / "legacy_cp1252.srt")
    target = save(doc, tmp_path / "out.srt", encoding="utf-8-sig").path
    assert target.read_bytes().startswith(b"\xef\xbb\xbfCafe"[:3])
    assert (doc.encoding, doc.bom) == ("utf-8", True)
    again = load(target)
    assert again.cues[0].text == "Café crème, s’il vous plaît – “naïve” déjà vu…"
    save(doc, tmp_path / "out16.srt", encoding="utf-16")
    assert (tmp_path / "out16.srt").read_bytes()[:2] == b"\xff\xfe"
    assert load(tmp_path / "out16.srt").cues[1].text == again.cues[1].text


def test_unencodable_character_is_a_clear_error() -> None:
    doc = load(FIXTURES / "legacy_cp1252.srt")
    doc.set_cue_text(0, "Ελληνικά")
    with pytest.raises(SubtitleError, match="cannot save as cp1252.*line 3"):
        doc.to_bytes()
    with pytest.raises(SubtitleError, match="unknown text encoding"):
        load(FIXTURES / "markup.srt").to_bytes(encoding="no-such-codec")


def test_broken_bom_file_is_refused() -> None:
    with pytest.raises(SubtitleError, match="byte-order mark"):
        loads(b"\xef\xbb\xbf1\n00:00:01,000 --> 00:00:02,000\n\xff\xfe\xfd\n")


def test_invalid_utf8_falls_back_to_a_code_page_that_round_trips() -> None:
    data = "1\n00:00:01,000 --> 00:00:02,000\nGarçon, un café crème!\n".encode("cp1252")
    doc = loads(data)
    assert doc.encoding == "cp1252"
    assert doc.to_bytes() == data
