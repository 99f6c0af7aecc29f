"""Mixed or broken encodings are refused, never recased into mojibake,
and a recase changes no byte outside the letters it recased."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from subcase.errors import SubcaseError
from subcase.subtitles import SubtitleError, loads
from subcase.subtitles.errors import MixedEncodingError

from .conftest import recase_word

REPO = Path(__file__).resolve().parents[2]

MIXED = (b"1\n00:00:01,000 --> 00:00:02,000\ncaf\xc3\xa9 in paris\n\n"       # UTF-8 line (line 3)
         b"2\n00:00:03,000 --> 00:00:04,000\nna\xefve r\xe9sum\xe9 in london\n")  # Latin-1 line (line 7)


def test_mixed_file_is_refused_with_line_numbers() -> None:
    with pytest.raises(MixedEncodingError) as info:
        loads(MIXED, "mixed.srt")
    message = str(info.value)
    assert "line 3 is UTF-8" in message and "line 7 is not (byte 0xef)" in message
    assert isinstance(info.value, SubtitleError) and isinstance(info.value, SubcaseError)


def test_a_legacy_line_that_is_utf8_by_chance_is_refused_not_misread() -> None:
    # cp1252 "café" and two no-break spaces are the bytes e9 a0 a0, also the UTF-8 of U+9820; next
    # to a line that is not UTF-8 the file has no single sure decoding, so it is refused, as a
    # mixed file is, with both lines named (found by the property test below; a known limit: a
    # genuine cp1252 file with this rare sequence must be saved as UTF-8 first).
    raw = (b"1\n00:00:00,000 --> 00:00:00,900\nparis\xa0paris\n\n"
           b"2\n00:00:01,000 --> 00:00:01,900\ncaf\xe9\xa0\xa0paris\n")
    with pytest.raises(MixedEncodingError, match=r"line 7 is UTF-8 .* but line 3 is not"):
        loads(raw, "prop.srt")


def test_single_legacy_encoding_is_still_read() -> None:
    latin = MIXED.replace(b"caf\xc3\xa9", b"caf\xe9")
    doc = loads(latin, "latin.srt")
    assert doc.cues[0].text == "café in paris" and doc.cues[1].text == "naïve résumé in london"


def test_convert_never_writes_mojibake(engine, tmp_path, capsys) -> None:
    """Before the fix the file was read as Latin-1 and c3 a9 came out as e3 a9."""
    from subcase.cli import main

    src = tmp_path / "mixed.srt"
    src.write_bytes(MIXED)
    rc = main(["convert", str(src), "-o", str(tmp_path / "out"), "-q"])
    assert rc == 1
    assert not (tmp_path / "out" / "mixed.srt").exists()
    err = capsys.readouterr().err
    assert "mixes text encodings" in err and "line 3" in err and "Traceback" not in err
    assert src.read_bytes() == MIXED


# -- property: a recase touches only the letters it recased ----------------------

WORDS = st.sampled_from(["paris", "london", "i", "nasa", "mcdonald's", "café", "ÉCOLE", "straße", "ǆungla",
                         "iphone", "o'brien", "x-ray", "ﬁle", "istanbul", "ıi", "σοφία", "ЖУК", "42nd"])
GLUE = st.sampled_from([" ", ", ", ". ", " - ", "\n", " <i>", "</i> ", " {\\an8}", " &amp; ", "\u00a0", "… ",
                        " <font color=\"red\">", "</font> ", "\\N", " \u2019"])


@st.composite
def cue_texts(draw) -> str:
    parts = [draw(WORDS)]
    for _ in range(draw(st.integers(0, 6))):
        parts += [draw(GLUE), draw(WORDS)]
    return "".join(parts)


@st.composite
def documents(draw) -> tuple[bytes, str]:
    encoding = draw(st.sampled_from(["utf-8", "utf-16-le", "cp1252"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    texts = draw(st.lists(cue_texts(), min_size=1, max_size=4))
    blocks = [f"{i + 1}{newline}00:00:0{i},000 --> 00:00:0{i},900{newline}{t.replace(chr(10), newline)}{newline}"
              for i, t in enumerate(texts)]
    text = newline.join(blocks)
    if encoding == "cp1252":
        text = text.encode("cp1252", errors="ignore").decode("cp1252")
    return text.encode(encoding), encoding


def _char_spans(doc) -> list[tuple[int, int]]:
    """Character offsets, in the rendered file, of every word of every cue
    (cue text joins its lines with "\n"; the file uses doc.newline)."""
    rendered, nl = doc.render(), doc.newline
    spans, pos = [], 0
    for cue in doc.cues:
        in_file = cue.text.replace("\n", nl)
        at = rendered.index(in_file, pos)

        def where(offset: int, at: int = at, text: str = cue.text) -> int:
            return at + offset + (len(nl) - 1) * text.count("\n", 0, offset)

        spans += [(where(w.start), where(w.end)) for w in cue.words()]
        pos = at + len(in_file)
    return spans


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_recasing_changes_only_recased_letters(doc_and_encoding, data) -> None:
    raw, drawn = doc_and_encoding
    try:
        doc = loads(raw, "prop.srt")
    except MixedEncodingError:
        # A cp1252 line can be valid UTF-8 by chance (see the test below); such a file is refused,
        # so it has nothing to recase.  In any other encoding a refusal is a failure.
        if drawn != "cp1252":
            raise
        assume(False)
    # Tiny legacy files may be detected as another code page; what matters is
    # that the bytes come back under whichever one was detected.
    encoding = doc.encoding
    before = doc.render()
    spans = _char_spans(doc)
    changed: set[int] = set()
    k = 0
    for cue in doc.cues:
        for wi, word in enumerate(cue.words()):
            form = data.draw(st.sampled_from([word.text.upper(), word.text.lower(), word.text.title(),
                                              word.text.swapcase(), word.text]))
            try:
                recase_word(doc, cue.index, wi, form)
            except ValueError:
                form = word.text  # not a pure case change (ß -> SS): refused, nothing changes
            if any(a != b and a in doc.uncertain for a, b in zip(word.text, form)):
                form = word.text  # recases a letter the code page guess is unsure of: the word is kept
            s, _ = spans[k]
            changed |= {s + j for j, (a, b) in enumerate(zip(word.text, form)) if a != b}
            k += 1
    after = doc.render()
    out = doc.to_bytes()
    assert out == (b"\xef\xbb\xbf" if doc.bom else b"") + after.encode(encoding)
    # The text differs only at recased letters, and each of those is a letter that changed case.
    assert len(after) == len(before)
    diff = {i for i, (a, b) in enumerate(zip(before, after)) if a != b}
    assert diff == changed
    for i in diff:
        assert before[i].isalpha()
        assert before[i].lower() == after[i].lower() or before[i].upper() == after[i].upper()
    # Bytes outside the recased characters are identical: compare the file piecewise.
    pos = 0
    for i in sorted(diff):
        assert out[len(after[:pos].encode(encoding)):len(after[:i].encode(encoding))] == \
            raw[len(before[:pos].encode(encoding)):len(before[:i].encode(encoding))]
        pos = i + 1
    assert out[len(after[:pos].encode(encoding)):] == raw[len(before[:pos].encode(encoding)):]
