"""A save that fails offers Save As, and the autosave keeps the edits until a save succeeds.

Real window offscreen, real model, a real read-only folder (a tmpfs remounted
read-only: root ignores permission bits).  The "Cannot save" box is the real
QMessageBox, answered by clicking its buttons from a timer while it runs its
own event loop; only QFileDialog.getSaveFileName, the platform's modal file
dialog, is replaced by the name the user would pick in it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.review.autosave import snapshot_path_for

from .conftest import DATA, needs_model, open_and_wait
from .test_safety import _edit_first_word

pytestmark = needs_model


def click_when_shown(find, pick, seen: list[str]) -> None:
    """When the box find() returns is showing, note its text and click the button pick(box) gives."""
    def poll() -> None:
        box = find()
        if box is None or not box.isVisible():
            QTimer.singleShot(20, poll)
            return
        seen.append(box.text())
        pick(box).click()
    QTimer.singleShot(0, poll)


def save_as_button(box: QMessageBox):
    return next(b for b in box.buttons() if b.text() == "Save As\u2026")


@pytest.fixture
def read_only_sample(tmpfs) -> Path:
    """sample.srt in a folder nothing can be written in (not even its backup)."""
    folder = tmpfs("1m")
    path = folder / "sample.srt"
    shutil.copy(DATA / "sample.srt", path)
    proc = subprocess.run(["mount", "-o", "remount,ro", str(folder)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot remount read-only: {proc.stderr.strip()}")
    return path


def test_failing_save_offers_save_as_and_keeps_the_autosave(qtbot, make_window, read_only_sample, tmp_path,
                                                             monkeypatch):
    """Before: a "Cannot save" notice with only OK; the edits could go nowhere but the autosave."""
    window = make_window()
    open_and_wait(qtbot, window, read_only_sample)
    _edit_first_word(qtbot, window)
    snapshot = snapshot_path_for(window.session.source)
    before = read_only_sample.read_bytes()
    window.saving.offer_save_as = window.saving._save_as_box  # the real box, not the fixture's "no"

    # 1. the save fails: the box says why and offers Save As; Cancel keeps everything as it was
    seen: list[str] = []
    click_when_shown(lambda: window.saving.save_failed_box, lambda box: box.escapeButton(), seen)
    assert window.saving.save() is False
    assert seen and "read-only" in seen[0] and str(read_only_sample) in seen[0]
    assert read_only_sample.read_bytes() == before and not window.review.undo_stack.isClean()
    # the edits are in the autosave at once (not only when its timer fires), and it stays
    qtbot.waitUntil(snapshot.exists, timeout=1000)
    window.autosaving.writer.flush()
    assert snapshot.exists()

    # 2. Save As from the box: the file goes where the user says, and only then is the autosave dropped
    chosen = tmp_path / "elsewhere" / "sample.srt"
    chosen.parent.mkdir()
    asked: list[str] = []

    def pick_a_file(_parent, _title, start, _filters, _current):
        asked.append(start)
        return str(chosen), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(pick_a_file))
    seen.clear()
    click_when_shown(lambda: window.saving.save_failed_box, save_as_button, seen)
    assert window.saving.save() is True
    assert seen and "read-only" in seen[0]
    assert asked == [str(read_only_sample)]
    assert chosen.read_bytes() != before and window.review.undo_stack.isClean()
    assert read_only_sample.read_bytes() == before
    window.autosaving.writer.flush()
    assert not snapshot.exists()


def test_save_on_a_full_disk_offers_save_as(qtbot, make_window, tmpfs, fill_disk, tmp_path, monkeypatch):
    """The same offer for any failing save, here ENOSPC: the file is left as it was."""
    folder = tmpfs("1m")
    path = folder / "sample.srt"
    shutil.copy(DATA / "sample.srt", path)
    window = make_window()
    open_and_wait(qtbot, window, path)
    _edit_first_word(qtbot, window)
    before = path.read_bytes()
    fill_disk(folder)
    window.saving.offer_save_as = window.saving._save_as_box
    chosen = tmp_path / "sample-saved.srt"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a: (str(chosen), "")))
    seen: list[str] = []
    click_when_shown(lambda: window.saving.save_failed_box, save_as_button, seen)
    assert window.saving.save() is True
    assert seen and "No space left on device" in seen[0]
    assert path.read_bytes() == before and chosen.read_bytes() != before
    assert window.review.undo_stack.isClean()
