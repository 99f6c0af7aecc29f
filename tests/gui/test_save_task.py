"""Save writes the file in a background task: the window answers meanwhile and takes no edit.

Real window offscreen, real model, real files.  The session's save (``subtitles.save``, as the session
module calls it) is held at a gate (a threading.Event the test opens) so the keys pressed "during the save"
are pressed while it is certainly running; the real render and atomic write run when the gate opens.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QTimer

from .conftest import needs_model, open_and_change_a_word

pytestmark = needs_model


def _gate_the_write(monkeypatch) -> threading.Event:
    """The session's save (render, encode, atomic write) waits for the returned event before it runs."""
    from subcase.review import session as session_module

    real_save = session_module.save
    gate = threading.Event()

    def gated(*args, **kwargs):
        # on the GUI thread (the save blocking it) the test's keys never run and the gate never opens
        assert gate.wait(10), "the test's keys did not run while the file was saved"
        return real_save(*args, **kwargs)

    monkeypatch.setattr(session_module, "save", gated)
    return gate


def test_save_runs_in_a_task_and_refuses_edits_meanwhile(qtbot, make_window, sample, monkeypatch):
    """Before: the save rendered and wrote on the GUI thread (2.1 s on a three-hour rolling file), so no
    event was handled until it ended."""
    window = make_window()
    open_and_change_a_word(qtbot, window, sample)
    doc = window.session.doc
    expected = doc.to_bytes()  # what the user saved: the review as it stood at Ctrl+S
    first_word = window.session.state.current
    gate = _gate_the_write(monkeypatch)
    seen: dict[str, object] = {}

    def during_the_save() -> None:
        seen["busy"] = window.review.busy
        seen["status"] = window.statusBar().currentMessage()
        seen["save enabled"] = window.menus.act_save.isEnabled()
        seen["undo enabled"] = window.menus.act_undo.isEnabled()
        window.view.setFocus()
        qtbot.keyClick(window.view, Qt.Key_L)                         # a decision
        qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)   # undo the U
        window.cue_editing.edit_cue_text(0, "a new first cue")        # an edit through the undo stack
        seen["text after the keys"] = doc.to_bytes()
        gate.set()

    resets: list[int] = []
    window.view.cue_model.modelReset.connect(lambda: resets.append(1))
    QTimer.singleShot(0, during_the_save)
    assert window.saving.save() is True
    assert seen, "no event was handled while the file was saved"
    assert not resets  # the rows are not laid out again after a save (seconds on a three-hour file)
    assert seen["busy"] is True and seen["save enabled"] is False and seen["undo enabled"] is False
    assert "Saving sample.srt" in str(seen["status"])
    assert seen["text after the keys"] == expected  # every key was refused: nothing changed
    assert sample.read_bytes() == expected
    assert not window.review.is_modified() and window.session.state.current == first_word
    assert not window.review.busy and window.menus.act_undo.isEnabled()  # the U can be undone now
    assert window.statusBar().currentMessage() == f"Saved {sample}"


def test_a_cue_edit_cased_during_the_save_comes_after_it(qtbot, make_window, sample, monkeypatch):
    """A cue's new text whose words were cased in their own task while the file was written is applied
    once the save ends: not lost, and not in the file just written.  Before: the save blocked the thread, so
    no such edit could finish during it."""
    window = make_window()
    open_and_change_a_word(qtbot, window, sample)
    expected = window.session.doc.to_bytes()
    gate = _gate_the_write(monkeypatch)
    seen: dict[str, object] = {}

    def during_the_save() -> None:
        seen["busy"] = window.review.busy
        window.cue_editing.edit_cue_text_cased(0, "meet me in paris")
        # its words are cased in a task of their own; the edit waits for the save
        qtbot.waitUntil(lambda: not window.cue_editing._cue_tasks, timeout=60_000)
        seen["text while saving"] = window.session.doc.cues[0].text
        gate.set()

    QTimer.singleShot(0, during_the_save)
    with qtbot.waitSignal(window.review.cue_text_edited, timeout=60_000):
        assert window.saving.save() is True
    assert seen["busy"] is True
    assert seen["text while saving"] != "meet me in paris"
    assert sample.read_bytes() == expected
    assert window.session.doc.cues[0].text.lower() == "meet me in paris"
    assert window.review.is_modified()  # the edit came after the save
    assert window.autosaving.timer.isActive()  # and the autosave keeps it (the save's discard came before it)

