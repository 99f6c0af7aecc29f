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
