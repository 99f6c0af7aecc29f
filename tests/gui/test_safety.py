"""The window never loses an edit, a log or a file without asking.

Real window offscreen, real model, real dialogs: each QMessageBox and
QFileDialog here is the one the user would see, answered by clicking its
buttons from a timer while it runs its own event loop.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from subcase.casing import Tag
from subcase.review import log_path_for, read_records

from .conftest import needs_model, open_and_wait

pytestmark = needs_model
ROOT = Path(__file__).resolve().parents[2]


def answer(find, button_text: str, before=None, seen: list | None = None) -> None:
    """When the dialog find() returns is showing, run before(dialog), then click button_text."""
    def poll() -> None:
        box = find()
        if box is None or not box.isVisible():
            QTimer.singleShot(20, poll)
            return
        if seen is not None:
            seen.append(box.text() if isinstance(box, QMessageBox) else box.windowTitle())
        if before is not None:
            before(box)
        button = next(b for b in box.buttons() if b.text() == button_text)
        button.click()
    QTimer.singleShot(0, poll)


def modal_box():
    w = QApplication.activeModalWidget()
    return w if isinstance(w, QMessageBox) else None


def real_dialogs(window) -> None:
    window.ask = window.prompts.ask_in_dialog  # the fixture answers "Discard"; these tests use the real dialog


def _edit_first_word(qtbot, window) -> None:
    window.navigation.goto((0, 0))
    window.decisions.set_tag(Tag.U)  # what the U key does
    assert not window.review.undo_stack.isClean()


# -- read-only files --------------------------------------------------------------

def test_read_only_file_asks_before_saving(qtbot, make_window, sample):
    window = make_window()
    open_and_wait(qtbot, window, sample)
    _edit_first_word(qtbot, window)
    os.chmod(sample, 0o444)
    before = sample.read_bytes()
    real_dialogs(window)
    seen: list[str] = []
    answer(modal_box, "&No", seen=seen)
    assert window.saving.save() is False
    assert seen and "read-only" in seen[0] and str(sample) in seen[0]
    assert sample.read_bytes() == before and not window.review.undo_stack.isClean()
    assert not sample.with_name("sample.srt.bak").exists()

    answer(modal_box, "&Yes")
    assert window.saving.save() is True
    assert sample.read_bytes() != before and window.review.undo_stack.isClean()
    assert os.stat(sample).st_mode & 0o777 == 0o444  # still read-only
    assert sample.with_name("sample.srt.bak").read_bytes() == before


def test_save_through_a_symlink_keeps_the_link(qtbot, make_window, sample):
    link = sample.with_name("link.srt")
    link.symlink_to(sample)
    window = make_window()
    open_and_wait(qtbot, window, link)
    before = sample.read_bytes()
    _edit_first_word(qtbot, window)
    assert window.saving.save() is True
    assert link.is_symlink() and sample.read_bytes() != before


# -- the edit log -------------------------------------------------------------------

def test_log_folder_cannot_be_created_go_on_without_a_log(qtbot, make_window, sample, tmpfs, monkeypatch):
    ro = tmpfs("64k", read_only=True)
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(ro / "data"))
    window = make_window()
    seen: list[str] = []
    answer(lambda: window.edit_log.log_failure_box, "Go on without a log", seen=seen)
    open_and_wait(qtbot, window, sample)
    assert seen and "Read-only file system" in seen[0]
    assert window.session is not None and window.session.log is None
    assert window.action_save.isEnabled() if hasattr(window, "action_save") else True
    assert window.status.log_label.text() == "No edit log"
    assert "Opening" not in window.statusBar().currentMessage()
    _edit_first_word(qtbot, window)  # reviewing works, by the user's choice without a log
    assert window.saving.save() is True


def test_log_folder_cannot_be_created_choose_another(qtbot, make_window, sample, tmpfs, tmp_path, monkeypatch):
    ro = tmpfs("64k", read_only=True)
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(ro / "data"))
    other = tmp_path / "my-logs"
    other.mkdir()
    window = make_window()

    def pick(_box) -> None:
        def in_file_dialog() -> None:
            d = window.edit_log.log_folder_dialog
            if d is None or not d.isVisible():
                QTimer.singleShot(20, in_file_dialog)
                return
            d.setDirectory(str(other))
            d.selectFile(str(other))
            d.accept()
        QTimer.singleShot(0, in_file_dialog)

    answer(lambda: window.edit_log.log_failure_box, "Choose another folder\u2026", before=pick)
    open_and_wait(qtbot, window, sample)
    log = window.session.log
    assert log is not None and log.path == other / log_path_for(sample).name
    _edit_first_word(qtbot, window)
    records = read_records(log.path)
    assert len(records) == 1 and records[0]["cue_index"] == 0 and records[0]["word_index"] == 0


def test_log_folder_cannot_be_created_cancel_opening(qtbot, make_window, sample, tmpfs, monkeypatch):
    ro = tmpfs("64k", read_only=True)
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(ro / "data"))
    window = make_window()
    answer(lambda: window.edit_log.log_failure_box, "Cancel opening")
    with qtbot.waitSignal(window.review.casing_cancelled, timeout=180_000):
        window.opening.open_file(sample)
    assert window.session is None and window.review.task is None
    assert "cancelled" in window.statusBar().currentMessage()


def test_disk_full_during_review_asks_and_never_shows_an_unrecorded_decision(
        qtbot, make_window, sample, tmpfs, fill_disk, monkeypatch):
    data = tmpfs("64k")
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(data))
    window = make_window()
    open_and_wait(qtbot, window, sample)
    log_file = window.session.log.path
    assert log_file.read_bytes() == b""  # nothing decided yet: the log has no page on the disk
    filler = fill_disk(data)
    word = window.session.state.word((0, 0))
    form_before, text_before = word.form, window.session.doc.cues[0].text

    # 1. Cancel: the decision is not applied and not on the undo stack.
    shown: list[tuple[str, str]] = []
    answer(lambda: window.edit_log.log_failure_box, "Cancel this decision",
           before=lambda box: shown.append((word.form, window.session.doc.cues[0].text)))
    window.navigation.goto((0, 0))
    window.decisions.set_tag(Tag.U)
    assert shown == [(form_before, text_before)]  # while the question is open, nothing shows as done
    assert word.form == form_before and window.session.doc.cues[0].text == text_before
    assert window.review.undo_stack.count() == 0 and read_records(log_file) == []

    # 2. The user frees space and tries again: applied, and on disk.
    answer(lambda: window.edit_log.log_failure_box, "Try again", before=lambda _b: filler.unlink())
    window.navigation.goto((0, 0))
    window.decisions.set_tag(Tag.U)
    assert word.form == form_before.upper() and window.review.undo_stack.count() == 1
    assert [r["final"] for r in read_records(log_file)] == [form_before.upper()]


# -- special files --------------------------------------------------------------------

def test_fifo_is_refused_at_once(qtbot, make_window, tmp_path):
    fifo = tmp_path / "a.srt"
    os.mkfifo(fifo)
    window = make_window()
    with qtbot.waitSignal(window.review.casing_failed, timeout=5000) as blocker:
        window.opening.open_file(fifo)
    assert "FIFO" in blocker.args[0]
    assert window.review.task is None and not window.status.cancel_button.isVisible()
    assert "Opening" not in window.statusBar().currentMessage()


def test_fifo_behind_a_symlink_is_refused_by_the_worker_too(qtbot, engines, tmp_path):
    """The worker checks as well (a file can become a FIFO after it was picked)."""
    from functools import partial

    from subcase.gui.tasks import Task
    from subcase.gui.workers import OpenWith, load_and_case

    fifo = tmp_path / "b.srt"
    os.mkfifo(fifo)
    task = Task(partial(load_and_case, fifo, engines, OpenWith()))
    with qtbot.waitSignal(task.signals.failed, timeout=5000) as blocker:
        QTimer.singleShot(0, task.run)
    assert "FIFO" in blocker.args[0] and "Traceback" not in blocker.args[0]


# -- batch ------------------------------------------------------------------------------

def test_batch_again_into_default_cased_folder(qtbot, make_window, tmp_path):
    folder = tmp_path / "films"
    folder.mkdir()
    example = ROOT / "resources" / "examples" / "lowercase-example.srt"
    for name in ("a.srt", "b.srt", "c.srt"):
        (folder / name).write_bytes(example.read_bytes())
    window = make_window()
    for run in range(2):
        dialog = window.drops.open_batch([folder])
        assert dialog.out_edit.text() == str(folder / "cased")
        if run:  # the first run's outputs exist: they are replaced, not taken as inputs
            answer(lambda d=dialog: d.existing_outputs_box, "Overwrite")
        with qtbot.waitSignal(dialog.finished_batch, timeout=180_000) as blocker:
            dialog.start()
        result = blocker.args[0]
        assert len(result.results) == 3 and not result.failed, dialog.report_text
        dialog.close()


def test_batch_collision_fails_the_later_file_like_the_cli(qtbot, make_window, tmp_path):
    example = ROOT / "resources" / "examples" / "lowercase-example.srt"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x.srt").write_bytes(example.read_bytes())
    (tmp_path / "b" / "x.srt").write_bytes(example.read_bytes())
    window = make_window()
    dialog = window.drops.open_batch([tmp_path / "a", tmp_path / "b"])
    dialog.out_edit.setText(str(tmp_path / "out"))
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000) as blocker:
        dialog.start()
    result = blocker.args[0]
    assert [r.ok for r in result.results] == [True, False]
    assert "already the output of" in result.results[1].error
    assert "1 converted, 1 failed" in dialog.report_text
    assert dialog.bars[1].format() == "failed"


def test_batch_vtt_to_srt_reports_what_it_drops(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = window.drops.open_batch([ROOT / "tests" / "fixtures" / "subtitles" / "features.vtt"])
    dialog.out_edit.setText(str(tmp_path / "out"))
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("srt"))
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000):
        dialog.start()
    assert "drops 2 voice name(s): Roger Bingham, Esme" in dialog.report_text
    assert "cue identifier(s): intro" in dialog.report_text


def test_save_as_srt_from_vtt_tells_what_was_dropped(qtbot, make_window, tmp_path):
    src = tmp_path / "features.vtt"
    src.write_bytes((ROOT / "tests" / "fixtures" / "subtitles" / "features.vtt").read_bytes())
    window = make_window()
    open_and_wait(qtbot, window, src)
    assert window.saving.save_to(tmp_path / "features.srt") is True
    assert "voice name(s)" in window.statusBar().currentMessage() or "voice name(s)" in _last_box_text(window)


def _last_box_text(window) -> str:
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    return boxes[-1].text() if boxes else ""


# -- Ctrl-C ---------------------------------------------------------------------------------

@pytest.mark.model
def test_ctrl_c_in_the_terminal_quits_the_gui(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               SUBCASE_DATA_DIR=str(tmp_path / "data"), SUBCASE_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.Popen([sys.executable, "-m", "subcase", "gui"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(6)  # let the window come up and go idle in Qt's event loop
        assert proc.poll() is None, proc.stderr.read().decode()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode()
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.model
def test_smoke_test_with_an_unwritable_log_folder_says_so_and_finishes(tmp_path):
    """Before: a traceback on stderr and the window stuck at "Opening…" (here, until the 600 s timer)."""
    (tmp_path / "data").write_text("a file where the data folder should be")
    sample = tmp_path / "sample.srt"
    sample.write_bytes((ROOT / "resources" / "examples" / "lowercase-example.srt").read_bytes())
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SUBCASE_DATA_DIR=str(tmp_path / "data"),
               SUBCASE_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.run([sys.executable, "-m", "subcase", "gui", "--smoke-test", str(sample)], env=env,
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "cannot create the edit log" in proc.stderr and "going on without an edit log" in proc.stderr
    assert "smoke-test: loaded" in proc.stdout
