"""The F2 box: Ctrl+Enter confirms it, and the words typed there are cased and flagged like the rest."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QPlainTextEdit

from subcase.review import Status

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

FILM = """1
00:00:01,000 --> 00:00:02,000
where were you last night?

2
00:00:03,000 --> 00:00:04,000
i stayed home.

3
00:00:05,000 --> 00:00:06,000
that is not what they told me.
"""


def open_film(qtbot, make_window, tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    window = make_window()
    open_and_wait(qtbot, window, path)
    window.navigation.goto((1, 0))
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    return window


def type_into_f2_box(qtbot, window, text: str) -> QPlainTextEdit:
    window.activateWindow()
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    # A box run in a nested event loop (exec) would hold this test until someone closed it.
    QTimer.singleShot(3000, lambda: getattr(window, "cue_edit_dialog", None) is None
                      and QApplication.activeModalWidget() is not None and QApplication.activeModalWidget().reject())
    qtbot.keyClick(window.view, Qt.Key_F2)
    qtbot.waitUntil(lambda: window.cue_editing.cue_edit_dialog is not None and window.cue_editing.cue_edit_dialog.isVisible())
    edit = window.cue_editing.cue_edit_dialog.findChild(QPlainTextEdit)
    qtbot.waitUntil(edit.hasFocus)
    qtbot.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(edit, text)
    return edit


def test_ctrl_enter_confirms_the_f2_box_and_the_typed_words_are_cased_and_flagged(qtbot, make_window, tmp_path):
    window = open_film(qtbot, make_window, tmp_path)
    session = window.session
    state, doc = session.state, session.doc
    before_text, before_words = doc.cues[1].text, list(state.cues[1])
    edit = type_into_f2_box(qtbot, window, "we met john in london.")
    qtbot.keyClick(edit, Qt.Key_Return)  # Enter alone starts a new line of the cue
    assert window.cue_editing.cue_edit_dialog is not None and edit.toPlainText() == "we met john in london.\n"
    qtbot.keyClick(edit, Qt.Key_Backspace)
    with qtbot.waitSignal(window.review.cue_text_edited, timeout=60_000):
        qtbot.keyClick(edit, Qt.Key_Return, Qt.ControlModifier)
    assert window.cue_editing.cue_edit_dialog is None
    # cased by the real model, in context: wide margins (P >= 0.95) on every word here
    assert doc.cues[1].text == "We met John in London."
    words = state.cues[1]
    assert [w.form for w in words] == ["We", "met", "John", "in", "London"]
    for w in words:
        assert w.model_tag is not None and w.probs is not None and max(w.probs) >= 0.95
        assert w.status is Status.UNTOUCHED  # not decided by the editor: flagged like any word
        assert w.needs_review(state.threshold) == (w.confidence < state.threshold)
    assert state.counts()["edited"] == 0
    # one undo step takes the whole edit back, one redo puts it again
    assert window.review.undo_stack.count() == 1
    window.menus.act_undo.trigger()
    assert doc.cues[1].text == before_text and state.cues[1] == before_words
    window.menus.act_redo.trigger()
    assert doc.cues[1].text == "We met John in London."
    assert [(w.form, w.model_tag) for w in state.cues[1]] == [(w.form, w.model_tag) for w in words]


def test_ctrl_with_the_keypad_enter_confirms_too_and_escape_cancels(qtbot, make_window, tmp_path):
    window = open_film(qtbot, make_window, tmp_path)
    doc = window.session.doc
    edit = type_into_f2_box(qtbot, window, "nothing happens")
    qtbot.keyClick(edit, Qt.Key_Escape)
    assert window.cue_editing.cue_edit_dialog is None and doc.cues[1].text == "I stayed home."
    edit = type_into_f2_box(qtbot, window, "I stayed in paris.")
    with qtbot.waitSignal(window.review.cue_text_edited, timeout=60_000):
        qtbot.keyClick(edit, Qt.Key_Enter, Qt.ControlModifier | Qt.KeypadModifier)
    assert doc.cues[1].text == "I stayed in Paris."
    words = window.session.state.cues[1]
    assert words[3].model_tag is not None and words[3].status is Status.UNTOUCHED  # "paris" was typed, and cased
    # the words kept from the old text keep their review (here: untouched, as the model cased them)
    assert [w.status for w in words[:2]] == [Status.UNTOUCHED, Status.UNTOUCHED]
