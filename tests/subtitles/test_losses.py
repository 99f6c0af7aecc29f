"""Save as: SRT <-> WebVTT with proper timestamps, header and tags."""

from __future__ import annotations

from subcase.subtitles import formats, load, loads, save
from subcase.subtitles.losses import conversion_losses

from .conftest import FIXTURES, recase_word


def test_srt_to_vtt() -> None:
    doc = load(FIXTURES / "markup_crlf.srt")
    out = doc.convert(formats.VTT).to_bytes().decode("utf-8")
    assert out.startswith("WEBVTT\r\n\r\n1\r\n00:00:01.000 --> 00:00:03.500\r\n")
    vtt = loads(out.encode(), "x.vtt")
    assert vtt.format == "vtt" and vtt.warnings == []
    assert [(c.start_ms, c.end_ms) for c in vtt.cues] == [(c.start_ms, c.end_ms) for c in doc.cues]
    assert vtt.cues[1].settings == "line:0"  # {\an8}
    assert vtt.cues[1].text == "Top of the screen, says Dr. Watson."
    assert vtt.cues[2].text == "She said middle tags <i>stay</i> put."  # {\\i1}...{\\i0} is WebVTT's <i>
    assert vtt.cues[3].text == "Yellow text and sized"  # WebVTT has no <font>
    assert vtt.cues[0].text == "<i>Nested <b>bold inside</b> italic</i>\r\nand <u>underlined</u> words".replace("\r", "")
    assert vtt.cues[5].text == "Tom &amp; Jerry &lt;3 New York&nbsp;City\nBroken line"
    assert [w.text for w in vtt.cues[5].words()] == [w.text for w in doc.cues[5].words()]


def test_vtt_to_srt() -> None:
    doc = load(FIXTURES / "features.vtt")
    out = doc.convert(formats.SRT).to_bytes().decode("utf-8")
    srt = loads(out.encode(), "x.srt")
    assert srt.format == "srt" and srt.warnings == []
    assert "WEBVTT" not in out and "STYLE" not in out and "NOTE" not in out and "fred" not in out
    assert [c.identifier for c in srt.cues] == ["1", "2", "3", "4", "5"]
    assert out.startswith("1\n00:00:01,000 --> 00:00:04,000\nWe are in New York City\n\n2\n")
    assert srt.cues[1].text == "{\\an1}It's a blue day"  # align:left; voice/class tags dropped
    assert srt.cues[2].text == "Karaoke one two three"  # inline timestamps dropped
    assert srt.cues[4].text == "Fish & chips <hot> \u00a0now été\n<i>Paris</i>, <b>London</b>, <u>Rome</u>"
    assert srt.cues[2].start_ms == 6500


def test_save_as_converts_by_extension(tmp_path) -> None:
    doc = load(FIXTURES / "markup.srt")
    recase_word(doc, 0, 0, "NESTED")
    saved = save(doc, tmp_path / "film.vtt")
    target = saved.path
    assert target.read_bytes().startswith(b"WEBVTT")
    assert (doc.format, saved.document.format, saved.document.path) == ("srt", "vtt", target)
    doc = saved.document
    assert doc.cues[0].text.startswith("<i>NESTED")
    assert doc.to_bytes() == target.read_bytes()
    assert saved.warnings == []
    back = save(doc, tmp_path / "film.srt")
    assert load(back.path).cues[0].text == doc.cues[0].text


def test_legacy_srt_to_vtt_is_utf8() -> None:
    doc = load(FIXTURES / "legacy_cp1252.srt")
    out = doc.convert(formats.VTT).to_bytes()
    assert "Café crème" in out.decode("utf-8")
    assert doc.convert(formats.VTT).to_bytes(encoding="utf-16").startswith(b"\xff\xfe")


def test_convert_leaves_the_document_alone() -> None:
    doc = load(FIXTURES / "markup.srt")
    before = doc.to_bytes()
    vtt = doc.convert(formats.VTT)
    assert vtt is not doc and vtt.cues[0] is not doc.cues[0]
    assert (doc.format, doc.to_bytes()) == ("srt", before)
    assert doc.convert(formats.SRT).to_bytes() == before


MISNAMED = ("WEBVTT\n\nNOTE keep me\n\nintro\n00:00:01.000 --> 00:00:03.000 align:start\n"
            "<v Bob>hello there, <c.red>bob</c>\n")


def test_a_webvtt_file_named_srt_is_read_saved_and_kept_as_webvtt(tmp_path) -> None:
    path = tmp_path / "film.srt"
    path.write_text(MISNAMED)
    doc = load(path)
    assert doc.format == "vtt"
    assert [str(w) for w in doc.warnings] == [
        "line 1: the file holds WebVTT though its name ends in .srt; read and kept as WebVTT"]
    recase_word(doc, 0, 0, "Hello")
    saved = save(doc)  # Save: its own file, in what it holds, not converted by its name
    assert saved.document is doc and saved.warnings == []
    assert path.read_text() == MISNAMED.replace("hello there", "Hello there")
    assert save(doc, tmp_path / "other.srt").document.format == "srt"  # Save As a new .srt converts


def test_a_format_asked_for_reads_without_the_name_warning() -> None:
    assert loads(MISNAMED.encode(), "film.srt", format="vtt").warnings == []
    assert loads(MISNAMED.encode(), "film.vtt").warnings == []


def test_microdvd_codes_are_markup_and_named_when_webvtt_cannot_hold_them() -> None:
    doc = loads("1\n00:00:01,000 --> 00:00:02,000\n{Y:i}i think so. {y:b}{c:$0000ff}we went to paris.\n".encode(),
                "x.srt")
    cue = doc.cues[0]
    assert [w.text for w in cue.words()] == ["i", "think", "so", "we", "went", "to", "paris"]
    assert cue.plain_text() == "i think so. we went to paris."
    assert conversion_losses(doc, "vtt") == [
        "converting to VTT drops 3 tag(s) WebVTT has no form for: {Y:i}, {y:b}, {c:$0000ff}"]


def test_ass_italic_bold_underline_become_webvtt_tags() -> None:
    doc = loads("1\n00:00:01,000 --> 00:00:02,000\n{\\i1}so{\\i0} {\\b1}very{\\b0} {\\u1}true{\\u0}\n".encode(),
                "x.srt")
    assert conversion_losses(doc, "vtt") == []
    assert doc.convert(formats.VTT).cues[0].text == "<i>so</i> <b>very</b> <u>true</u>"


def test_text_outside_cues_and_escaped_brackets_are_named_on_conversion() -> None:
    srt = loads(b"1\n-00:00:01,000 --> 00:00:02,000\nhello john\n\n2\n00:00:03,000 --> 00:00:04,000\nok\n", "x.srt")
    assert conversion_losses(srt, "vtt") == [
        "converting to VTT drops 3 line(s) outside any cue: 1, -00:00:01,000 --> 00:00:02,000, hello john"]
    assert conversion_losses(srt, "srt") == []  # its own format keeps them verbatim
    vtt = loads(b"WEBVTT\n\nNOTE kept apart\n\nstray\n\n00:00:03.000 --> 00:00:04.000\n&lt;laughing &amp; whoops&gt;\n",
                "x.vtt")
    assert conversion_losses(vtt, "srt") == [
        "converting to SRT drops 1 NOTE/STYLE/REGION block(s): 1 NOTE",
        "converting to SRT writes the escaped '<' of 1 cue(s) as a bare '<', which players may read as a tag "
        "and hide: '<laughing & whoops>'",
        "converting to SRT drops 1 line(s) outside any cue: stray"]
