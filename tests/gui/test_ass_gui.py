"""The editor with ASS/SSA scripts: open, review, save in the same format; the format in the title; the file
dialogs, drag-and-drop and the batch dialog take every suffix the format registry reads."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent

from subcase.subtitles import formats

from .conftest import needs_model, open_and_change_a_word, open_and_wait

pytestmark = needs_model

ASS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "subtitles" / "ass"


def test_open_review_and_save_an_ass_script(qtbot, make_window, tmp_path):
    path = tmp_path / "episode.ass"
    shutil.copy(ASS_DIR / "own_fansub_crlf_bom.ass", path)
    before = path.read_bytes()
    window = make_window()
    open_and_change_a_word(qtbot, window, path)
    assert window.windowTitle() == "*episode.ass (ASS/SSA) \u2014 subcase"
    assert window.saving.save()
    after = path.read_bytes()
    assert window.session.doc.format == "ass" and window.last_error == ""
    assert len(after) == len(before) and after.lower() == before.lower()  # the same script, letters recased
    assert after.startswith(b"\xef\xbb\xbf[Script Info]\r\n") and b"[Fonts]\r\nfontname: subcase_0.ttf" in after
    assert window.windowTitle() == "episode.ass (ASS/SSA) \u2014 subcase"


def test_the_dialogs_offer_every_suffix_of_the_registry():
    from subcase.gui.batch_dialog import FORMATS as BATCH_FORMATS
    from subcase.gui.opening import open_filter

    every = open_filter().split(";;")[0]
    for suffix in formats.SUFFIXES:
        assert f"*{suffix}" in every
    assert "ASS/SSA (*.ass *.ssa)" in open_filter()
    assert "ass" in [name for _, name in BATCH_FORMATS]


def test_dropping_an_ssa_file_opens_it(qtbot, make_window, tmp_path):
    path = tmp_path / "old.ssa"
    shutil.copy(ASS_DIR / "pysubs2_simple.ssa", path)
    window = make_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(QPoint(50, 50), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    window.event(enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.review.casing_finished, timeout=180_000):
        window.event(QDropEvent(QPointF(50, 50), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert window.session is not None and window.session.doc.path == path
    assert window.windowTitle().endswith("old.ssa (ASS/SSA) \u2014 subcase")


def test_save_as_srt_from_ass_says_what_was_dropped(qtbot, make_window, tmp_path):
    src = tmp_path / "episode.ass"
    shutil.copy(ASS_DIR / "own_fansub_crlf_bom.ass", src)
    window = make_window()
    open_and_wait(qtbot, window, src)
    shown: list[tuple[str, str]] = []
    window.prompts.notify = lambda title, text, error=False: shown.append((title, text))  # type: ignore[method-assign]
    assert window.saving.save_to(tmp_path / "episode.srt") is True
    assert (tmp_path / "episode.srt").read_bytes().startswith(b"\xef\xbb\xbf1\r\n00:00:01,000 --> ")
    assert window.session.doc.format == "srt"
    assert window.windowTitle() == "episode.srt (SubRip) \u2014 subcase"
    [(title, text)] = shown
    assert title == "Saved with losses"
    assert "converting to SRT drops 10 override tag(s): \\k20, \\k35, \\k40, \u2026" in text.splitlines()
