"""A batch conversion and the editor share one engine: neither waits for the other to finish.

The engine takes turns between callers per batch of windows, so a file opened
while a batch runs is cased alongside it, and Cancel stops either at once.
Real window and batch dialog, offscreen, with the real model.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from .conftest import long_srt, needs_model, open_and_wait, wait_for_emission

pytestmark = needs_model


def start_batch(qtbot, window, tmp_path, films: int):
    src = tmp_path / "batch-in"
    src.mkdir()
    for i in range(films):
        long_srt(src / f"film{i}.srt")
    dialog = window.drops.open_batch([src])
    dialog.out_edit.setText(str(tmp_path / "batch-out"))
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    wait_for_emission(qtbot, dialog.task.signals.progress, timeout=60_000)  # the batch holds the engine now
    return dialog


def test_opening_a_file_during_a_batch_is_not_blocked(qtbot, make_window, sample, tmp_path):
    window = make_window()
    dialog = start_batch(qtbot, window, tmp_path, films=8)
    open_and_wait(qtbot, window, sample, timeout=60_000)
    # the file is open and cased while the batch is still going
    assert dialog.running and window.session is not None and window.session.doc.path == sample
    t = time.monotonic()
    with qtbot.waitSignal(dialog.finished_batch, timeout=30_000) as done:
        qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
    assert done.args[0] is not None and done.args[0].cancelled
    assert time.monotonic() - t < 10  # stops after the current batch of windows, not the file
    dialog.close()


def test_cancel_works_on_a_file_opened_during_a_batch(qtbot, make_window, sample, tmp_path):
    window = make_window()
    open_and_wait(qtbot, window, sample)
    previous = window.session
    dialog = start_batch(qtbot, window, tmp_path, films=8)
    window.opening.open_file(long_srt(tmp_path / "big.srt"))
    wait_for_emission(qtbot, window.review.task.signals.progress, timeout=60_000)  # casing has begun, alongside the batch
    with qtbot.waitSignal(window.review.casing_cancelled, timeout=10_000):
        qtbot.mouseClick(window.status.cancel_button, Qt.LeftButton)
    assert window.session is previous and not window.review.busy
    assert dialog.running  # the batch goes on, untouched
    with qtbot.waitSignal(dialog.finished_batch, timeout=30_000):
        dialog.cancel()
    dialog.close()
