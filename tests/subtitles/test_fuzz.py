"""Random and mutated files: the reader either reads them losslessly or
refuses them with SubtitleError; nothing else ever escapes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from subcase.subtitles import SubtitleError, loads

from .conftest import GOOD_FIXTURES, assert_only_case_changed

SEEDS = [p.read_bytes() for p in GOOD_FIXTURES]
PIECES = [b"\n", b"\r\n", b"\r", b"-->", b" --> ", b"00:00:01,000", b"00:01.500", b"WEBVTT", b"NOTE",
          b"STYLE", b"<i>", b"</i>", b"{\\an8}", b"&amp;", b"<v Bob>", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00",
          b"1", b"\xe9", b"\xc3\xa9", b" ", b"line:85%"]

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 8))):
        pos = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["insert", "delete", "flip", "piece"]))
        if op == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del data[pos:pos + draw(st.integers(1, 30))]
        elif op == "flip" and pos < len(data):
            data[pos] = draw(st.integers(0, 255))
        else:
            data[pos:pos] = draw(st.sampled_from(PIECES))
    return bytes(data)


def _exercise(data: bytes, name: str) -> None:
    try:
        doc = loads(data, name)
    except SubtitleError as exc:
        assert str(exc).startswith(name + ":") and len(str(exc)) > len(name) + 10
        return
    assert doc.to_bytes() == data
    for w in doc.warnings:
        assert w.line >= 1 and w.message
    for cue in doc.cues:
        for i, word in enumerate(cue.words()):
            low = word.text.lower()
            if len(low) == len(word.text):
                doc.set_word(cue.index, i, low)
    assert_only_case_changed(data, doc.to_bytes(), doc.encoding)
    for fmt in ("srt", "vtt"):
        try:
            doc.to_bytes(fmt)
        except SubtitleError:
            pass  # e.g. a UTF-16 document's text that cp-encodings cannot hold


@FUZZ
@given(mutated(), st.sampled_from(["x.srt", "x.vtt", "x.txt"]))
def test_mutated_files(data: bytes, name: str) -> None:
    _exercise(data, name)


@FUZZ
@given(st.binary(max_size=400), st.sampled_from(["x.srt", "x.vtt"]))
def test_random_bytes(data: bytes, name: str) -> None:
    _exercise(data, name)


@FUZZ
@given(st.lists(st.sampled_from(PIECES + [b"Hello", b"world", b"\n\n", b"00:00:02,000"]), max_size=40))
def test_subtitle_shaped_noise(parts: list[bytes]) -> None:
    _exercise(b"".join(parts), "x.srt")
