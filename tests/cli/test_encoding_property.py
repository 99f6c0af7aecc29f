"""Property (issue #54): random subtitle text in every supported encoding, from one cue up, cased by the real
model as ``convert`` cases it, comes back with only letters' case changed and restored marks inserted,
judged by decoding both files in the encoding the text was really written in."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from subcase.casing.pipeline import case_file
from subcase.casing.restoring import Punctuate
from subcase.subtitles.encoding import LEGACY_CODECS

from helpers.changes import assert_only_letters_and_marks

pytestmark = pytest.mark.model

# (the encoding the bytes are in, the BOM written before them)
ENCODINGS = [("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE),
             ("utf-16-be", codecs.BOM_UTF16_BE), ("utf-16-le", b""),
             *((codec, b"") for codec in LEGACY_CODECS)]
assert {"cp1252", "iso8859-1", "cp1250", "cp1251", "cp1253", "cp1254", "mac-roman"} <= set(LEGACY_CODECS)

# Not in cue text: markup and the timing arrow's characters would make it another file's structure.
_STRUCTURE = set("<>{}\\&-\r\n")


def _characters(codec: str) -> tuple[str, str]:
    """(letters, other characters) the legacy page ``codec`` can write, or a many-script mix for Unicode."""
    if codec.startswith("utf"):
        chars = "".join(bytes(range(0x20, 0x100)).decode(c, errors="ignore") for c in LEGACY_CODECS)
        chars += "\u4e2d\u6587\u65e5\u672c\u00df\u0130\u0131\u01c6\u01c5\ufb01\u2019\u00a0\U0001f600"
    else:
        chars = bytes(range(0x20, 0x100)).decode(codec, errors="ignore")
    chars = "".join(sorted({c for c in chars if c.isprintable() or c == "\u00a0"} - _STRUCTURE))
    # a letter whose other case is several characters ("\u03b0" -> "\u03a5\u0308\u0301", "\u00df" -> "SS")
    # makes the casing fail with ValueError, another bug (reported with issue #54's part 1), so none is drawn
    letters = "".join(c for c in chars if c.isalpha() and len(c.upper()) == len(c.lower()) == 1)
    return letters, "".join(c for c in chars if not c.isalpha())


@st.composite
def subtitle_files(draw) -> tuple[bytes, str, bytes]:
    codec, bom = draw(st.sampled_from(ENCODINGS))
    letters, others = _characters(codec)
    # words: letters mostly, sometimes with a digit, apostrophe or symbol inside; glue: spaces and marks
    word = st.text(st.sampled_from(letters), min_size=1, max_size=9) | st.text(
        st.sampled_from(letters + others), min_size=1, max_size=6)
    glue = st.sampled_from([" ", " ", " ", ", ", ". ", "? ", "! "]) | st.text(
        st.sampled_from(others), min_size=1, max_size=3).map(lambda s: f" {s} ")

    def line() -> str:
        parts = [draw(word)]
        for _ in range(draw(st.integers(0, 7))):
            parts += [draw(glue), draw(word)]
        text = "".join(parts).strip()
        # a text line of digits alone could read as the next cue's number; a letter makes it text
        return text if any(c.isalpha() for c in text) else f"{text} {letters[0]}"

    newline = draw(st.sampled_from(["\n", "\r\n"]))
    cues = []
    for i in range(draw(st.integers(1, 12))):
        lines = [line() for _ in range(draw(st.integers(1, 2)))]
        cues.append(f"{i + 1}{newline}00:{i // 60:02d}:{i % 60:02d},000 --> 00:{i // 60:02d}:{i % 60:02d},900"
                    f"{newline}{newline.join(lines)}{newline}")
    return bom + newline.join(cues).encode(codec), codec, bom


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("encodings")


# Derandomized: CI must give the same answer on every run.  Random draws once found a Mac Roman sample of
# symbols that reads as another code page (its "\u02c6" came back as "\u00f7"): a guess no detector can make
# on such short random text; the open-ended search is the fuzz targets' job (tests/fuzz, docs/dev/testing.md).
@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(subtitle_files(), st.sampled_from([Punctuate.NEVER, Punctuate.ALWAYS]))
def test_converting_changes_only_letters_and_restored_marks(engine, folder, file, punctuate) -> None:
    data, codec, bom = file
    path = folder / "prop.srt"
    path.write_bytes(data)
    try:
        cased = case_file(engine, path, punctuate=punctuate)
    except Exception as exc:  # a file refused as mixed-up encodings: one clear line, nothing written
        from subcase.subtitles.errors import MixedEncodingError
        assert isinstance(exc, MixedEncodingError) and codec not in ("utf-8", "utf-16-le", "utf-16-be"), exc
        return
    try:
        out = cased.doc.to_bytes()
    except Exception as exc:  # a restored mark the code page has no byte for: the save is refused, nothing lost
        from subcase.subtitles.errors import SubtitleError
        assert isinstance(exc, SubtitleError) and "cannot save as" in str(exc), exc
        return
    assert out.startswith(bom)
    assert_only_letters_and_marks(data[len(bom):].decode(codec), out[len(bom):].decode(codec))
