"""The editor learns from a fix made by keyboard: learned words look different, say why, undo as one."""

from __future__ import annotations

from PySide6.QtCore import Qt

from subcase.gui.cue_view import MARKERS
from subcase.review import Look, Status, look_of

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

FILM = """1
00:00:01,000 --> 00:00:02,000
[laughing]

2
00:00:03,000 --> 00:00:04,000
where were you?

3
00:00:05,000 --> 00:00:06,000
[door slams]
i waited.

4
00:00:07,000 --> 00:00:08,000
[joel sighs]

5
00:00:09,000 --> 00:00:10,000
[train horn blows]
"""


def test_a_fix_by_keyboard_restyles_sound_cues_shows_why_and_undoes_as_one(qtbot, make_window, tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    window = make_window()
    open_and_wait(qtbot, window, path)
    session = window.session
    state, doc = session.state, session.doc
    assert session.learner is not None
    before = [c.text for c in doc.cues]
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)

    # N until the current word is "door" (the model writes "[door slams]" but "[LAUGHING]")
    for _ in range(len(list(state.positions()))):
        qtbot.keyClick(window.view, Qt.Key_N)
        if state.current is not None and state.word(state.current).form.lower() == "door":
            break
    door = state.current
    assert state.word(door).form == "door"
    # the status bar and Word Details say why it is highlighted
    assert "why: low confidence" in window.status.word_label.text()
    assert "low confidence" in window.details.why_label.text()

    qtbot.keyClick(window.view, Qt.Key_U)  # UPPER: this file writes its sound cues in capitals
    assert doc.cues[2].text == "[DOOR SLAMS]\nI waited."
    assert doc.cues[3].text == "[JOEL SIGHS]" and doc.cues[4].text == "[TRAIN HORN BLOWS]"
    slams = (2, 1)
    assert state.word(slams).status is Status.LEARNED
    # its own look and marker in the cue view, and its reason in the status bar and Word Details
    assert look_of(state.word(slams), state.threshold) is Look.LEARNED
    assert window.view.delegate.gloss(state, *slams).startswith(MARKERS[Look.LEARNED])
    window.navigation.goto(slams)
    assert "why: changed by what you taught" in window.status.word_label.text()
    assert "changed by what you taught" in window.details.why_label.text()
    # "[LAUGHING]", already in capitals but unsure, is settled by the style: off the list, saying why
    laughing = (0, 0)
    assert state.word(laughing).form == "LAUGHING" and state.word(laughing).status is Status.LEARNED
    assert not state.word(laughing).needs_review(state.threshold)
    window.navigation.goto(laughing)
    assert "why: confirmed by what you taught" in window.status.word_label.text()

    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)  # one undo: the fix and all it caused
    assert [c.text for c in doc.cues] == before
    assert all(w.status is Status.UNTOUCHED for w in state.all_words())


def test_house_style_chosen_in_the_review_menu_is_what_the_editor_proposes(qtbot, make_window, tmp_path):
    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    window = make_window()
    window.menus.act_styles["sound-cues"]["lower"].trigger()
    assert window.settings.house_style("sound-cues") == "lower"
    open_and_wait(qtbot, window, path)
    doc = window.session.doc
    assert doc.cues[0].text == "[laughing]" and doc.cues[4].text == "[train horn blows]"
    assert doc.cues[3].text == "[Joel sighs]"  # the name keeps its capital
    # turning learning off takes effect for the next file opened
    window.menus.act_learning.setChecked(False)
    assert window.settings.learning is False
    open_and_wait(qtbot, window, path)
    assert window.session.learner is None
