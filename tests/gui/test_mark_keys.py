"""Restored punctuation in the editor, by keyboard: a real window offscreen, the real model, a real dev file with
its punctuation stripped, opened with the default setting (punctuate auto).

No assertion rests on which word the model doubts or which mark it restores (a near-tie of the int8 model can
go the other way on another CPU): the tests take whatever word the review order reaches and assert relations
(the mark after it is the next one in the cycle, undo gives back the exact bytes, Enter accepts the mark...).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from subcase.casing.marks import MARK_NAMES, MARKS
from subcase.review import Look, SetMark, Status, mark_look_of
from subcase.review.actions import next_distinct_tag
from subcase.subtitles import load

from .conftest import needs_model, open_and_wait

SINTEL = "meyer1994__srt__sintel_en.srt"


@pytest.fixture
def stripped(stripped_dev) -> Path:
    """Sintel's subtitles as speech recognition writes them: lower case, no punctuation."""
    return stripped_dev(SINTEL)


def mark_now(window, pos) -> str:
    s = window.session
    return SetMark.mark_at(s.doc, s.state, pos)


def press(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.view, key, modifier)


def next_doubtful_mark(qtbot, window, limit: int = 400):
    """Press N until the current word has a restored mark still to review; its position."""
    state = window.session.state
    for _ in range(limit):
        press(qtbot, window, Qt.Key_N)
        pos = state.current
        if pos is not None and state.word(pos).mark_needs_review(state.mark_threshold):
            return pos
    raise AssertionError("N never reached a restored mark to review")


@needs_model
def test_marks_are_cycled_removed_and_accepted_by_key_each_one_undo_step(qtbot, make_window, stripped):
    window = make_window()
    window.resize(1600, 1000)  # the cue column wide enough for whole cues (a narrow one elides their ends)
    assert window.settings.punctuate == "auto"  # the editor restores marks where the text has none
    open_and_wait(qtbot, window, stripped)
    session = window.session
    doc, state = session.doc, session.state
    marked = [pos for pos in state.positions() if state.word(pos).mark is not None]
    assert marked and all(mark_now(window, p) == state.word(p).mark.proposed != "" for p in marked)
    opened = doc.to_bytes()
    stack = window.review.undo_stack
    window.view.setFocus()

    # 1. the next word to review, whatever it is: "." cycles the mark after it, one undo step each
    press(qtbot, window, Qt.Key_N)
    pos = state.current
    assert pos is not None
    first = mark_now(window, pos)
    seen = [first]
    for k in range(len(MARKS)):
        press(qtbot, window, Qt.Key_Period)
        assert state.current == pos  # the cursor stays: the key goes on cycling
        seen.append(mark_now(window, pos))
        assert MARKS.index(seen[-1]) == (MARKS.index(seen[-2]) + 1) % len(MARKS)
        assert stack.count() == k + 1 and stack.undoText().startswith("Set mark to ")
    assert seen[-1] == first and sorted(seen[:-1]) == sorted(MARKS)  # round the whole cycle
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert mark_now(window, pos) == seen[-2]
    for _ in range(len(MARKS) - 1):
        press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert mark_now(window, pos) == first and doc.to_bytes() == opened
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert mark_now(window, pos) == seen[1]  # redone
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.to_bytes() == opened and stack.index() == 0

    # 2. a restored mark to review: its look, its details, then Ctrl+. takes it away
    pos = next_doubtful_mark(qtbot, window)
    w = state.word(pos)
    proposed = w.mark.proposed
    assert mark_look_of(w, state.mark_threshold) is Look.REVIEW
    delegate = window.view.delegate
    lay = delegate.layout(pos[0], window.view.text_rect(pos[0]))
    assert Look.REVIEW in [look for *_, look in delegate.mark_boxes(lay, state.cues[pos[0]], state)]
    details = window.details.mark_probs_label.text().splitlines()
    assert window.details.mark_label.text().startswith(f"Proposed {MARK_NAMES[proposed]} ")
    assert [line.split(":")[0] for line in details] == [f"{MARK_NAMES[m]} ({m})" if m else "none" for m in MARKS]
    assert [line.split(": ")[1].split(" ")[0] for line in details] == [f"{p:.0%}" for p in w.mark.probs]
    # the word's state says it is on the review list, for its casing or for its mark alone
    assert "to review" in window.details.state_label.text()
    before = (doc.to_bytes(), w.mark)
    press(qtbot, window, Qt.Key_Period, Qt.KeyboardModifier.ControlModifier)
    assert mark_now(window, pos) == "" and state.word(pos).mark.now == ""
    assert state.word(pos).mark.status is Status.CHANGED
    assert mark_look_of(state.word(pos), state.mark_threshold) is Look.CHANGED
    assert window.details.mark_label.text().endswith("now none \u00b7 changed by you")
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (doc.to_bytes(), state.word(pos).mark) == before
    press(qtbot, window, Qt.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert mark_now(window, pos) == "" and state.word(pos).mark.status is Status.CHANGED
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (doc.to_bytes(), state.word(pos).mark) == before

    # 3. Enter accepts the word with its mark, even when the word itself was decided first (its next tag, from
    # its menu: on a word flagged for its mark alone Space cycles the mark, test_mark_only_keys.py)
    window.navigation.goto(pos)
    window.decisions.set_tag(next_distinct_tag(state.word(pos), window.decisions.write_tag), advance=False)
    assert state.word(pos).decided and state.word(pos).mark_needs_review(state.mark_threshold)
    press(qtbot, window, Qt.Key_Return)
    assert state.word(pos).mark.status is Status.ACCEPTED and state.word(pos).mark.now == proposed
    assert not state.needs_review(pos) and state.current != pos  # on to the next word to review
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert state.word(pos).mark.status is Status.UNTOUCHED
    press(qtbot, window, Qt.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert state.word(pos).mark.status is Status.ACCEPTED
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.to_bytes() == opened and stack.index() == 0

    # 4. a word without a mark gets one: the editor can add a missing mark, and take it away again
    bare = next(p for p in state.positions() if p[0] > pos[0] and state.word(p).mark is None
                and mark_now(window, p) == "" and SetMark.applies(doc, state, p))
    window.navigation.goto(bare)
    press(qtbot, window, Qt.Key_Period)
    assert mark_now(window, bare) == ","
    assert doc.cues[bare[0]].text[state.word(bare).end] == ","
    press(qtbot, window, Qt.Key_Period, Qt.KeyboardModifier.ControlModifier)
    assert mark_now(window, bare) == "" and doc.to_bytes() == opened
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.to_bytes() == opened and stack.index() == 0


@needs_model
def test_the_keys_are_in_the_review_menu_and_the_help(make_window):
    from subcase.gui.help import INTRO, shortcut_rows

    window = make_window()
    rows = shortcut_rows(window.menuBar())
    assert ("Review", "Cycle Punctuation Mark", ".") in rows
    assert ("Review", "Remove Punctuation Mark", "Ctrl+., Backspace, Del") in rows
    keys = [k for _, _, ks in rows for k in ks.split(", ")]
    assert len(keys) == len(set(keys))  # no shortcut does two things
    assert '"." cycles the mark' in INTRO


@needs_model
def test_the_punctuation_setting_is_kept_and_reaches_the_next_file_opened(qtbot, make_window, stripped):
    from subcase.gui.settings import Settings

    window = make_window()
    window.menus.act_punctuate["never"].trigger()
    assert Settings().punctuate == "never"  # persisted
    open_and_wait(qtbot, window, stripped)
    assert not any(w.mark is not None for w in window.session.state.all_words())
    # cased, nothing added: the same characters as the file, but for their case
    assert [c.text.lower() for c in window.session.doc.cues] == [c.text.lower() for c in load(stripped).cues]
    window.menus.act_punctuate["always"].trigger()
    assert Settings().punctuate == "always" and window.menus.act_punctuate["always"].isChecked()


@needs_model
def test_the_batch_dialog_converts_with_the_punctuation_chosen(qtbot, engines, stripped, tmp_path):
    from subcase.batch import ConvertOptions, collect_batch_inputs, convert_batch, plan_outputs
    from subcase.casing import Mode
    from subcase.gui.batch_dialog import BatchDialog
    from subcase.gui.settings import Settings

    dialog = BatchDialog([stripped], engines, Settings())
    qtbot.addWidget(dialog)
    assert dialog.punctuate_combo.currentData() == "auto"
    dialog.punctuate_combo.setCurrentIndex(dialog.punctuate_combo.findData("always"))
    dialog.out_edit.setText(str(tmp_path / "out"))
    dialog.jobs_spin.setValue(1)
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000):
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    assert dialog.job.punctuate == "always" and Settings().punctuate == "always"
    found, _ = collect_batch_inputs([stripped])
    outputs = {}
    # in the dialog's mode: restore mode (ConvertOptions' default) reads its output again where it restores
    # marks, so on this file it no longer writes what auto mode writes
    mode = Mode(dialog.mode_combo.currentData())
    for punctuate in ("always", "never"):
        convert_batch(plan_outputs(found, tmp_path / punctuate, None),
                      ConvertOptions(jobs=1, punctuate=punctuate, mode=mode), engine=engines.get)
        outputs[punctuate] = (tmp_path / punctuate / SINTEL).read_bytes()
    assert (tmp_path / "out" / SINTEL).read_bytes() == outputs["always"] != outputs["never"]
    dialog.close()


@needs_model
def test_accept_rest_of_cue_accepts_its_marks_when_its_words_are_decided(qtbot, make_window, stripped):
    window = make_window()
    open_and_wait(qtbot, window, stripped)
    state = window.session.state
    c = next(c for c, words in enumerate(state.cues) if any(w.mark_needs_review(state.mark_threshold) for w in words))
    window.view.setFocus()
    for s, w in enumerate(state.cues[c]):  # every word of the cue decided by hand (Space: its next tag)
        if w.needs_review(state.threshold):
            window.navigation.goto((c, s))
            press(qtbot, window, Qt.Key_Space)
    assert not any(w.needs_review(state.threshold) for w in state.cues[c])
    marks = [s for s, w in enumerate(state.cues[c]) if w.mark_needs_review(state.mark_threshold)]
    assert marks
    window.navigation.goto((c, 0))
    press(qtbot, window, Qt.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert all(state.cues[c][s].mark.status is Status.ACCEPTED for s in marks)
    assert not any(state.needs_review((c, s)) for s in range(len(state.cues[c])))
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert all(state.cues[c][s].mark_needs_review(state.mark_threshold) for s in marks)


@needs_model
def test_the_word_menu_offers_each_mark_with_its_probability(qtbot, make_window, stripped):
    from PySide6.QtCore import QPoint

    window = make_window()
    open_and_wait(qtbot, window, stripped)
    doc, state = window.session.doc, window.session.state
    pos = next(p for p in state.positions() if state.word(p).mark is not None)
    opened, now = doc.to_bytes(), mark_now(window, pos)
    window.decisions.show_alternatives(pos[0], pos[1], QPoint(0, 0))
    menu = window.decisions.alternatives_menu
    choices = [a for a in menu.actions() if a.text().startswith("Mark after: ")]
    assert [a.isChecked() for a in choices] == [m == now for m in MARKS]
    assert [a.text().rsplit("(", 1)[1] for a in choices] == [f"{p:.0%})" for p in state.word(pos).mark.probs]
    other = MARKS.index(now) + 1 if MARKS.index(now) + 1 < len(MARKS) else 0
    choices[other].trigger()
    assert mark_now(window, pos) == MARKS[other] and window.review.undo_stack.count() == 1
    menu.close()
    window.view.setFocus()
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.to_bytes() == opened
