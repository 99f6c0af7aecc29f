"""Saving from the window warns when a reference parser would misread the file."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from .conftest import needs_model, open_and_change_a_word

pytestmark = needs_model

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "subtitles"


def test_save_warns_when_pysrt_reads_fewer_cues(qtbot, make_window, tmp_path):
    path = tmp_path / "malformed.srt"
    shutil.copy(FIXTURES / "malformed.srt", path)
    window = make_window()
    open_and_change_a_word(qtbot, window, path, Qt.Key_Right)
    assert window.saving.save()  # saved all the same
    assert not window.review.is_modified()
    assert path.read_bytes() == window.session.doc.to_bytes()
    # pysrt reads the file back in the background (seconds on a long file), then the window says so
    qtbot.waitUntil(lambda: "pysrt reads 12 cue(s) where the file has 13" in window.last_error, timeout=30_000)
    assert "players built on it may misread this file" in window.last_error


def test_clean_save_shows_no_warning(qtbot, make_window, sample):
    window = make_window()
    open_and_change_a_word(qtbot, window, sample)
    assert window.saving.save()
    qtbot.waitUntil(lambda: window.saving.check_task is not None and window.saving.check_task.done.is_set())
    qtbot.wait(10)  # its result, queued to the GUI thread, is delivered
    assert window.last_error == ""
    assert window.statusBar().currentMessage() == f"Saved {sample}"


def test_save_keeps_a_webvtt_file_named_srt_as_webvtt(qtbot, make_window, tmp_path):
    """Save writes what the file holds: the name's suffix converts only on Save As."""
    path = tmp_path / "talk.srt"
    path.write_text("WEBVTT\n\nNOTE keep me\n\nintro\n00:00:01.000 --> 00:00:03.000 align:start\n"
                    "<v Bob>hello there, we went to paris\n")
    window = make_window()
    open_and_change_a_word(qtbot, window, path)
    assert window.saving.save()
    text = path.read_text()
    assert text.startswith("WEBVTT\n\nNOTE keep me\n\nintro\n") and "<v Bob>" in text
    assert window.session.doc.format == "vtt" and window.last_error == ""
