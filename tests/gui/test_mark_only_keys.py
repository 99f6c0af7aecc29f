"""A word on the review list for the mark restored after it, not for its letters: the review keys decide the mark.

A real window offscreen, the real model, Sintel's dev subtitles with their punctuation stripped, opened with the
default setting (punctuate auto).  The word is whichever one the file gives that is flagged only for its mark
(no assertion rests on which word that is); the tests assert what the keys do to it.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from subcase.casing.marks import MARKS
from subcase.review import SetMark, Status, flag_reasons, log_path_for, read_records

from .conftest import needs_model, open_and_wait

SINTEL = "meyer1994__srt__sintel_en.srt"


def press(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.view, key, modifier)


def undo(qtbot, window) -> None:
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)


def mark_only(state, pos) -> bool:
    """On the review list for its mark and not its letters (``ReviewState.flagged_for_mark_only``, spelled out)."""
    w = state.word(pos)
    return w.mark is not None and w.mark.confidence < state.mark_threshold and not w.flagged(state.threshold)


@pytest.fixture
def opened(qtbot, make_window, stripped_dev):
    window = make_window()
    path = stripped_dev(SINTEL)
    open_and_wait(qtbot, window, path)
    state = window.session.state
    pos = next((p for p in state.positions() if mark_only(state, p) and state.needs_review(p)), None)
    assert pos is not None, "no word flagged for its mark alone in the stripped film"
    window.navigation.goto(pos)
    window.view.setFocus()
    return window, path, pos


def mark_now(window, pos) -> str:
    s = window.session
    return SetMark.mark_at(s.doc, s.state, pos)


@needs_model
def test_the_casing_keys_leave_a_word_flagged_for_its_mark_alone_as_it_is(qtbot, opened):
    window, _, pos = opened
    state, doc = window.session.state, window.session.doc
    w = state.word(pos)
    before = (doc.to_bytes(), w.form, w.status, w.mark)
    for key in (Qt.Key_L, Qt.Key_T, Qt.Key_U, Qt.Key_M):
        press(qtbot, window, key)
        assert (doc.to_bytes(), w.form, w.status, w.mark) == before
        assert state.current == pos and window.review.undo_stack.count() == 0
    assert "Flagged for the mark after it" in window.statusBar().currentMessage()
    assert state.flagged_for_mark_only(pos)
    # the details say what the highlight is for, and which keys decide it
    text = window.details.state_label.text()
    assert text.startswith("State: the mark after it to review; flagged for the mark alone, not for the word's casing")
    assert "Enter keeps the mark" in text and "Backspace removes it" in text
    assert [r.code for r in flag_reasons(state, pos)] == ["mark_confidence"]


@needs_model
def test_space_cycles_the_mark_and_enter_keeps_the_mark_alone(qtbot, opened):
    window, path, pos = opened
    state, doc = window.session.state, window.session.doc
    w = state.word(pos)
    opened_bytes, form, proposed = doc.to_bytes(), w.form, w.mark.proposed
    press(qtbot, window, Qt.Key_Space)
    assert mark_now(window, pos) == MARKS[(MARKS.index(proposed) + 1) % len(MARKS)]
    assert state.word(pos).form == form and state.word(pos).status is Status.UNTOUCHED  # the letters untouched
    assert state.current == pos  # the cursor stays: Space goes on cycling
    undo(qtbot, window)
    assert doc.to_bytes() == opened_bytes

    press(qtbot, window, Qt.Key_Return)
    w = state.word(pos)
    assert w.mark.status is Status.ACCEPTED and w.mark.now == proposed
    assert w.status is Status.UNTOUCHED  # the word was not looked at: no decision on its casing
    assert not state.needs_review(pos) and state.current != pos  # on to the next word to review
    actions = [r["action"] for r in read_records(log_path_for(path))]
    assert actions[-1] == "accepted_mark" and "accepted" not in actions  # the log records the mark alone
    undo(qtbot, window)
    assert state.word(pos).mark.status is Status.UNTOUCHED and state.needs_review(pos)
    assert doc.to_bytes() == opened_bytes


@needs_model
def test_the_typed_marks_set_it_and_backspace_removes_it_each_one_undo_step(qtbot, opened):
    window, _, pos = opened
    state, doc = window.session.state, window.session.doc
    opened_bytes, proposed = doc.to_bytes(), state.word(pos).mark.proposed
    stack = window.review.undo_stack
    for key, mark in ((Qt.Key_Question, "?"), (Qt.Key_Comma, ","), (Qt.Key_Exclam, "!")):
        press(qtbot, window, key)
        assert mark_now(window, pos) == mark
        assert state.word(pos).mark.status is (Status.ACCEPTED if mark == proposed else Status.CHANGED)
    assert stack.count() == 3
    press(qtbot, window, Qt.Key_Backspace)
    assert mark_now(window, pos) == "" and state.word(pos).mark.status is Status.CHANGED
    assert window.details.state_label.text().startswith("State: the mark after it decided; flagged for the mark alone")
    for _ in range(4):
        undo(qtbot, window)
    assert doc.to_bytes() == opened_bytes and state.word(pos).mark.status is Status.UNTOUCHED


@needs_model
def test_the_mark_keys_are_in_the_review_menu_and_the_help(make_window):
    from subcase.gui.help import INTRO, shortcut_rows

    rows = shortcut_rows(make_window().menuBar())
    assert ("Review", "Remove Punctuation Mark", "Ctrl+., Backspace, Del") in rows
    for name, key in (("Comma", ","), ("Question mark", "?"), ("Exclamation mark", "!")):
        assert ("Review", f"Set Mark: {name}", key) in rows
    keys = [k for _, _, ks in rows for k in ks.split(", ")]
    assert len(keys) == len(set(keys))
    assert "On a word flagged only for the mark after it, the keys decide the mark" in INTRO
