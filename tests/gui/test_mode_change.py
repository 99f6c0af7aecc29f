"""The casing mode can be changed on the open file: re-cased in a worker, one undoable step."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from subcase.review import Status, log_path_for, read_records

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

FILM = """1
00:00:01,000 --> 00:00:02,000
WE MET JOHN IN LONDON.

2
00:00:03,000 --> 00:00:04,000
i told Mary about the FBI.

3
00:00:05,000 --> 00:00:06,000
she said nothing.
"""


def test_changing_the_mode_recases_the_open_file_as_one_undoable_step(qtbot, make_window, tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    window = make_window()
    window.settings.mode = "restore"
    open_and_wait(qtbot, window, path)
    session = window.session
    state, doc = session.state, session.doc
    # a decision first: the editor writes "about" in capitals (kept whatever the mode)
    about = next((1, s) for s, w in enumerate(state.cues[1]) if w.input == "about")
    window.navigation.goto(about)
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    qtbot.keyClick(window.view, Qt.Key_U)
    assert state.word(about).form == "ABOUT" and state.word(about).status is Status.CHANGED
    restored = [c.text for c in doc.cues]
    assert restored[1] != FILM.split("\n")[6]  # restore mode re-cased the mixed line

    with qtbot.waitSignal(window.review.mode_changed, timeout=60_000) as blocker:
        window.menus.act_modes["caps"].trigger()
        assert window.review.busy and window.status.cancel_button.isVisible()  # cased in a worker, Cancel offered
    assert blocker.args == ["caps"] and session.mode == "caps" and window.settings.mode == "caps"
    # caps mode keeps a line not written in capitals as the file has it (a rule, not the model),
    # except the word the editor decided
    assert doc.cues[1].text == "i told Mary ABOUT the FBI."
    assert doc.cues[0].text == restored[0]  # a capitals line is re-cased in both modes alike
    assert doc.cues[2].text == "she said nothing."
    assert state.word(about).status is Status.CHANGED
    assert all(w.status is Status.UNTOUCHED and w.form == w.input for w in state.cues[2])
    assert window.review.undo_stack.count() == 2 and window.menus.act_modes["caps"].isChecked()

    window.menus.act_undo.trigger()  # one step back: the restore mode's casing, the decision kept
    assert [c.text for c in doc.cues] == restored and session.mode == "restore"
    assert window.menus.act_modes["restore"].isChecked()
    window.menus.act_redo.trigger()
    assert doc.cues[1].text == "i told Mary ABOUT the FBI." and session.mode == "caps"

    # an autosave after the change restores it exactly (the file cased again in the mode it was opened in)
    assert window.autosaving.save_now(wait=True) is not None
    second = make_window()
    second.ask = lambda *a: QMessageBox.Yes
    with qtbot.waitSignal(second.review.casing_finished, timeout=60_000):
        assert second.recovery.check_recovery()
    assert second.session.doc.to_bytes() == doc.to_bytes() and second.session.mode == "caps"
    assert [[(w.form, w.status, w.probs) for w in c] for c in second.session.state.cues] == \
        [[(w.form, w.status, w.probs) for w in c] for c in state.cues]
    second.ask = lambda *a: QMessageBox.Discard

    # the edit log says which mode each later decision was made in
    window.activateWindow()
    window.navigation.goto((2, 0))
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    n = len(read_records(log_path_for(path)))
    qtbot.keyClick(window.view, Qt.Key_Return)
    assert len(read_records(log_path_for(path))) == n + 1
    assert read_records(log_path_for(path))[-1]["mode"] == "caps"
    assert window.saving.save()
    assert path.read_text(encoding="utf-8").splitlines()[6] == "i told Mary ABOUT the FBI."
