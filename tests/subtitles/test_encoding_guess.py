"""A legacy code page guessed with low confidence: the Western page wins ties, a letter whose byte reads
otherwise in another page that fits keeps its case, the user is told in one line, and ``encoding=``
overrides the guess (issue #54, repro 1)."""

from __future__ import annotations

import pytest

from subcase.subtitles import SubtitleError, load, loads
from subcase.subtitles.encoding import decode

from .conftest import recase_word

# Issue #54's repro: 2 cues, 116 bytes of cp1252; charset-normalizer's best guess is DOS Baltic (cp775),
# where 0x93 (cp1252 "\u201c") is the letter "\u014d", which the truecaser recased to 0xe2.
SHORT_CP1252 = (b"1\r\n00:00:01,000 --> 00:00:02,000\r\n\x93we met ren\xe9 in z\xfcrich\x94\r\n\r\n"
                b"2\r\n00:00:03,000 --> 00:00:04,000\r\nthen paris \x96 france\r\n")


def test_short_cp1252_file_is_read_as_cp1252() -> None:
    assert len(SHORT_CP1252) == 116
    doc = loads(SHORT_CP1252, "short.srt")
    assert doc.encoding == "cp1252"
    assert doc.cues[0].text == "\u201cwe met ren\u00e9 in z\u00fcrich\u201d"
    assert doc.cues[1].text == "then paris \u2013 france"
    assert doc.to_bytes() == SHORT_CP1252


def test_the_guess_is_doubted_in_one_line_and_its_unsure_letters_keep_their_case() -> None:
    doc = loads(SHORT_CP1252, "short.srt")
    doubt = doc.encoding_doubt
    assert doubt is not None and "\n" not in doubt
    assert "read as cp1252" in doubt and "--encoding" not in doubt  # the CLI adds its option, the GUI does not
    # 0xe9 is "\u00e9" in cp1252 but "\u0398" (an upper-case letter) in cp775: its case is not sure to be a case
    assert "\u00e9" in doc.uncertain
    recase_word(doc, 0, 2, "REN\u00c9")  # "ren\u00e9": the whole word is kept, never "RENé"
    recase_word(doc, 0, 1, "MET")
    out = doc.to_bytes()
    assert out == SHORT_CP1252.replace(b"met", b"MET")


def test_a_sure_guess_has_no_doubt() -> None:
    """Six cues of French: enough bytes 0x80-0xff to tell the pages apart (encoding._EVIDENCE_BYTES)."""
    text = ("Caf\u00e9 cr\u00e8me, s\u2019il vous pla\u00eet \u2013 \u201cna\u00efve\u201d d\u00e9j\u00e0 vu\u2026 "
            "O\u00f9 est la gare? \u00c7a va tr\u00e8s bien.")
    data = "".join(f"{i + 1}\n00:00:0{i},000 --> 00:00:0{i},900\n{text}\n\n" for i in range(6)).encode("cp1252")
    doc = loads(data, "long.srt")
    assert doc.encoding == "cp1252"
    assert doc.encoding_doubt is None and not doc.uncertain


def test_encoding_overrides_the_guess(tmp_path) -> None:
    doc = loads(SHORT_CP1252, "short.srt", encoding="cp775")
    assert (doc.encoding, doc.encoding_doubt, doc.uncertain) == ("cp775", None, frozenset())
    assert doc.cues[0].text.startswith("\u014dwe")
    path = tmp_path / "short.srt"
    path.write_bytes(SHORT_CP1252)
    assert load(path, "windows-1252").encoding == "cp1252"


def test_encoding_that_does_not_fit_is_one_clear_error() -> None:
    with pytest.raises(SubtitleError, match=r"short\.srt: is not utf-8 text \(byte 0x93 on line 3\)"):
        loads(SHORT_CP1252, "short.srt", encoding="utf-8")
    with pytest.raises(SubtitleError, match="unknown text encoding 'base64'"):
        loads(SHORT_CP1252, "short.srt", encoding="base64")
    with pytest.raises(SubtitleError, match="unknown text encoding 'klingon'"):
        loads(SHORT_CP1252, "short.srt", encoding="klingon")


def test_encoding_keeps_a_bom_the_file_has() -> None:
    data = "\ufeff1\n00:00:01,000 --> 00:00:02,000\nhello\n".encode("utf-16-le")
    decoded = decode(data, "bom.srt", "utf-16-le")
    assert decoded.bom and decoded.text.startswith("1\n")
