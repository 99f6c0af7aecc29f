"""Malformed input is read as far as possible, with a warning per problem."""

from __future__ import annotations

import pytest

from subcase.subtitles import ParseWarning, SubtitleError, formats, load, loads

from .conftest import FIXTURES


def _warnings(doc) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for w in doc.warnings:
        assert isinstance(w, ParseWarning)
        out.setdefault(w.line, []).append(w.message)
    return out


def test_malformed_srt_reads_every_cue_and_warns_by_line() -> None:
    doc = load(FIXTURES / "malformed.srt")
    assert len(doc.cues) == 13
    w = _warnings(doc)
    expect = {
        1: "text outside any cue",
        4: "'.' before the milliseconds",
        8: "2-digit milliseconds",
        12: "4-digit milliseconds",
        15: "no index number",
        21: "no blank line before this cue",
        25: "extra blank line",
        30: "blank line inside cue",
        34: "ends before it starts",
        42: "overlaps the previous cue",
        46: "out of order",
        50: "empty cue",
    }
    for line, text in expect.items():
        assert any(text in m for m in w.get(line, [])), (line, text, w.get(line))
    times = [(c.start_ms, c.end_ms) for c in doc.cues]
    assert times[0] == (1000, 2000)
    assert times[1] == (3000, 4000)
    assert times[2] == (5123, 6568)  # four-digit fractions are fractions of a second
    assert doc.cues[3].identifier is None and doc.cues[3].text == "This cue has no index."
    assert doc.cues[4].text == "No blank line follows this cue."
    assert doc.cues[5].identifier == "6"
    assert doc.cues[6].text == "A blank line\n\ninside this cue."
    assert doc.cues[11].text == ""
    assert doc.cues[12].text == "The last cue has no final newline."


def test_malformed_vtt() -> None:
    doc = load(FIXTURES / "malformed.vtt")
    w = _warnings(doc)
    assert any("no blank line" in m for m in w[2])
    assert any("',' before the milliseconds" in m for m in w[7])
    assert any("empty cue" in m for m in w[10])
    assert doc.cues[0].start_ms == 1000 and doc.cues[1].start_ms == 3000


def test_vtt_without_header_is_read_with_warning() -> None:
    doc = loads(b"00:00:01.000 --> 00:00:02.000\nHello\n", "headless.vtt")
    assert doc.format == "vtt"
    assert any("WEBVTT" in w.message for w in doc.warnings)
    assert doc.to_bytes() == b"00:00:01.000 --> 00:00:02.000\nHello\n"


def test_unreadable_timing_line_is_kept_as_text_with_warning() -> None:
    data = b"1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:0x,000 --> soon\nthere\n"
    doc = loads(data)
    assert any("cannot read the timing line" in w.message and w.line == 6 for w in doc.warnings)
    assert doc.to_bytes() == data


@pytest.mark.parametrize("name, fragment", [
    ("not_subtitles.txt", "no subtitle cues found"),
    ("binary.srt", "binary data"),
    ("empty.srt", "empty"),
])
def test_non_subtitles_are_refused_with_one_clear_error(name: str, fragment: str) -> None:
    with pytest.raises(SubtitleError) as info:
        load(FIXTURES / name)
    assert fragment in str(info.value)
    assert name in str(info.value)


def test_missing_file_and_directory_are_subtitle_errors(tmp_path) -> None:
    with pytest.raises(SubtitleError, match="cannot read"):
        load(tmp_path / "nope.srt")
    with pytest.raises(SubtitleError, match="cannot read"):
        load(tmp_path)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(SubtitleError, match="unknown subtitle format"):
        loads(b"1\n00:00:01,000 --> 00:00:02,000\nx\n", format="sami")


@pytest.mark.parametrize("between", [b"NOTE a comment\n\n", b"STYLE\n::cue { color: red; }\n\n",
                                     b"REGION\nid:r\n\n", b"NOTE\n\n"])
def test_text_after_a_vtt_block_stays_in_place(between: bytes) -> None:
    # Regression (fuzz): text after a NOTE/STYLE/REGION block was joined to the
    # cue before that block, so it was written out ahead of the block.
    data = (b"WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nFirst\n\n" + between
            + b"c00:00:10.500 --> 00:00:12.000\nFish &amp; chips\n")
    for name in ("x.srt", "x.vtt"):
        doc = loads(data, name)
        assert doc.to_bytes() == data
        assert [c.text for c in doc.cues] == ["First"]
        assert any("outside any cue" in w.message for w in doc.warnings)


def test_text_after_a_note_is_not_glued_to_the_next_cue_either() -> None:
    data = (b"WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nA\n\nNOTE x\n\nstray\n\n"
            b"2\n00:00:03.000 --> 00:00:04.000\nB\n")
    doc = loads(data, "x.vtt")
    assert doc.to_bytes() == data
    assert [c.text for c in doc.cues] == ["A", "B"]
    # An ordinary blank line inside a cue still continues that cue.
    data = b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n\nmore\n\nNOTE x\n"
    doc = loads(data, "x.vtt")
    assert doc.to_bytes() == data and doc.cues[0].text == "A\n\nmore"


_HUGE = b"1" * 5000  # Python's int() refuses strings of over 4300 digits


@pytest.mark.parametrize("timing", [b"00:00:03," + _HUGE + b" --> 00:00:04,000",
                                    _HUGE + b":00:03,000 --> 00:00:04,000",
                                    b"00:00:03,000 --> 00:00:04," + _HUGE])
def test_timing_with_absurdly_long_numbers_is_kept_as_text(timing: bytes) -> None:
    data = b"1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n" + timing + b"\nB\n"
    doc = loads(data)
    assert doc.to_bytes() == data
    assert len(doc.cues) == 1
    assert any("cannot read the timing line" in w.message and w.line == 6 for w in doc.warnings)


def test_absurdly_long_srt_index_is_read() -> None:
    data = b"1\n00:00:01,000 --> 00:00:02,000\nA\n\n" + _HUGE + b"\n00:00:03,000 --> 00:00:04,000\nB\n"
    doc = loads(data)
    assert doc.to_bytes() == data
    assert doc.cues[1].identifier == _HUGE.decode()
    assert any("out of sequence" in w.message for w in doc.warnings)


def test_absurdly_long_character_reference() -> None:
    data = b"WEBVTT\n\n00:01.000 --> 00:02.000\nA &#" + _HUGE + b"; &#" + b"0" * 5000 + b"66;\n"
    doc = loads(data, "x.vtt")
    assert doc.to_bytes() == data
    assert doc.cues[0].plain_text() == "A \ufffd B"
    assert b"A \xef\xbf\xbd B" in doc.convert(formats.SRT).to_bytes()
