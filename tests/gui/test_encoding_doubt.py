"""Opening a file whose code page is a low-confidence guess says so, and keeps its unsure bytes on save."""

from __future__ import annotations

import re

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

# Issue #54, repro 1 (tests/subtitles/test_encoding_guess.py): read as cp775 before, 0x93 saved as 0xe2.
SHORT_CP1252 = (b"1\r\n00:00:01,000 --> 00:00:02,000\r\n\x93we met ren\xe9 in z\xfcrich\x94\r\n\r\n"
                b"2\r\n00:00:03,000 --> 00:00:04,000\r\nthen paris \x96 france\r\n")


def test_status_bar_warns_of_a_doubtful_code_page_and_save_keeps_the_bytes(qtbot, make_window, tmp_path):
    path = tmp_path / "short.srt"
    path.write_bytes(SHORT_CP1252)
    window = make_window()
    open_and_wait(qtbot, window, path)
    message = window.statusBar().currentMessage()
    assert "Warning: text encoding guessed with low confidence: read as cp1252" in message
    doc = window.session.doc
    assert doc.encoding == "cp1252" and doc.cues[0].text.startswith("\u201c")
    assert window.saving.save()
    out = path.read_bytes()
    assert out[0x22] == 0x93 and b"\x94" in out and b"\x96" in out
    # letters may be recased and marks restored ("z\xfcrich,\x94"); no other byte differs
    assert re.sub(rb"(?<=[a-z\xfc])[,.]", b"", out.lower()) == SHORT_CP1252.lower()


def test_the_review_shows_the_forms_the_file_gets(qtbot, make_window, tmp_path):
    """A letter kept in its case because its byte is in doubt is not shown recased for review."""
    path = tmp_path / "short.srt"
    # 0xfd is "\u00fd" in cp1252 but "\u0131" in cp1254, whose upper case is "I", not 0xdd: in doubt
    text = "\u00fdes, we met \u00fdves in z\u00fcrich."
    path.write_bytes("".join(f"{i + 1}\r\n00:00:0{i},000 --> 00:00:0{i},900\r\n{text}\r\n\r\n"
                             for i in range(2)).encode("cp1252"))
    window = make_window()
    open_and_wait(qtbot, window, path)
    doc, state = window.session.doc, window.session.state
    assert "\u00fd" in doc.uncertain
    # the model would write "\u00ddes" and "\u00ddves"
    assert doc.cues[0].text.startswith("\u00fdes") and "\u00fdves" in doc.cues[0].text
    for c, s in state.positions():
        form = state.word((c, s)).form
        assert form in doc.cues[c].text, (form, doc.cues[c].text)
    assert state.word((0, 0)).form == "\u00fdes"
