"""What a new user noticed trying the editor (issue #57 item 6), on the real window offscreen."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from .conftest import needs_model, open_and_wait


@needs_model
def test_the_open_error_names_the_file_once(qtbot, make_window, tmp_path):
    bad = tmp_path / "notes.srt"
    bad.write_bytes(b"\x00\x01 this is no subtitle file \xff\xfe" * 10)
    window = make_window()
    with qtbot.waitSignal(window.review.casing_failed, timeout=60_000):
        window.opening.open_file(bad)
    assert str(bad) in window.last_error
    assert window.last_error.count(bad.name) == 1, window.last_error


@needs_model
def test_the_cue_text_box_says_how_to_confirm(qtbot, make_window, sample):
    window = make_window()
    open_and_wait(qtbot, window, sample)
    window.view.selectRow(0)
    window.menus.act_edit_text.trigger()
    dialog = window.cue_editing.cue_edit_dialog
    assert dialog is not None
    said = " ".join(label.text() for label in dialog.findChildren(QLabel) if dialog.layout().indexOf(label) >= 0)
    assert "Ctrl+Enter" in said and "new line" in said
    dialog.reject()


@needs_model
def test_a_long_status_message_is_not_cut_off_by_the_counters(qtbot, make_window, sample):
    window = make_window()
    open_and_wait(qtbot, window, sample)
    bar = window.statusBar()
    counters = window.status.count_label
    qtbot.waitUntil(counters.isVisible, timeout=20_000) if not bar.currentMessage() else None
    room = bar.width() - counters.width() - 40
    word = "casing "
    message = word * (room // bar.fontMetrics().horizontalAdvance(word) + 4)  # longer than beside the counters
    bar.showMessage(message, 5000)
    qtbot.wait(50)
    assert not counters.isVisible()
    assert bar.fontMetrics().horizontalAdvance(message.strip()) <= bar.width() - 20  # the whole bar holds it
    bar.clearMessage()
    qtbot.wait(50)
    assert counters.isVisible() and counters.text().endswith("words")
