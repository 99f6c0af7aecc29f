"""Choosing a profile, seeing what it did, removing a wrong entry: the real window, offscreen."""

from __future__ import annotations

from PySide6.QtCore import Qt

from subcase.gui.cue_view import MARKERS
from subcase.review import Look, Status, look_of
from subcase.review.profiles import store as profile_store
from subcase.review.flags import flag_reasons
from subcase.review.profiles.profile import Entry, Profile

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

EPISODE = ("1\n00:00:01,000 --> 00:00:02,000\nwe met proog at the station.\n\n"
           "2\n00:00:03,000 --> 00:00:04,000\nthe dog followed proog to the park.\n")


def stored_profile(version: str) -> Profile:
    """A profile as a colleague shares it: one name, decided in two earlier episodes."""
    p = Profile("Proog show", version)
    p.entries["word"]["proog"] = Entry("Proog", decisions=4, changes=4, files=2)
    profile_store.save(p)
    return p


def test_choose_a_profile_see_it_and_remove_a_wrong_entry(qtbot, make_window, tmp_path, engines):
    stored_profile(engines.get().info.version)
    path = tmp_path / "ep3.srt"
    path.write_text(EPISODE, encoding="utf-8")
    window = make_window()
    assert not window.menus.act_profile_contents.isEnabled()
    # Review > Profile (next file opened) lists it; choosing it is remembered
    window.menu_bar.fill_profiles()
    names = [a.text() for a in window.menu_bar.profile_menu.actions() if a.isCheckable()]
    assert names == ["None", "Proog show"]
    window.menu_bar.profile_menu.actions()[1].trigger()
    assert window.settings.profile == "Proog show"

    open_and_wait(qtbot, window, path)
    state, doc = window.session.state, window.session.doc
    assert doc.cues[0].text == "We met Proog at the station." and "Proog" in doc.cues[1].text
    places = [p for p in state.positions() if state.word(p).form == "Proog"]
    assert len(places) == 2
    for p in places:
        w = state.word(p)
        assert w.status is Status.PROFILE and look_of(w, state.threshold) is Look.PROFILE
    assert MARKERS[Look.PROFILE] == "p"
    reasons = [str(r) for r in flag_reasons(state, places[0])]
    assert reasons[0].startswith("from your profile: your profile writes this 'Proog'")
    assert "from profile Proog show" in window.statusBar().currentMessage()

    # Review > Profile Contents: what it holds and changed here
    assert window.menus.act_profile_contents.isEnabled()
    window.menus.act_profile_contents.trigger()
    dialog = window.profiles.profile_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.table.rowCount() == 1
    assert [dialog.table.item(0, c).text() for c in (0, 1, 3)] == ["word:proog", "Proog", "2"]

    # the entry is wrong for this editor: remove it, one step
    dialog.table.selectRow(0)
    qtbot.mouseClick(dialog.remove_button, Qt.LeftButton)
    assert doc.cues[0].text == "We met proog at the station."
    assert all(state.word(p).status is Status.UNTOUCHED for p in places)
    assert profile_store.load("Proog show").removed == ["word:proog"]
    assert dialog.table.rowCount() == 0
    # ... and Edit > Undo brings it back, in the file and in the stored profile
    window.menus.act_undo.trigger()
    assert doc.cues[0].text == "We met Proog at the station."
    assert state.word(places[0]).status is Status.PROFILE
    assert profile_store.load("Proog show").removed == []


def test_the_batch_dialog_offers_the_profiles(qtbot, tmp_path, engines):
    from subcase.gui.batch_dialog import BatchDialog
    from subcase.gui.settings import Settings

    stored_profile(engines.get().info.version)
    path = tmp_path / "ep3.srt"
    path.write_text(EPISODE, encoding="utf-8")
    settings = Settings()
    settings.profile = "Proog show"
    dialog = BatchDialog([path], engines, settings)
    qtbot.addWidget(dialog)
    assert [dialog.profile_combo.itemText(i) for i in range(dialog.profile_combo.count())] == ["None", "Proog show"]
    assert dialog.profile_combo.currentData() == "Proog show"
    dialog.out_edit.setText(str(tmp_path / "out"))
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000):
        dialog.start()
    assert (tmp_path / "out" / "ep3.srt").read_text(encoding="utf-8").count("Proog") == 2


EPISODES = [
    "1\n00:00:01,000 --> 00:00:02,000\nso we asked proog about it.\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\nthen we went home with proog and the dog.\n",
    "1\n00:00:01,000 --> 00:00:02,000\nlater proog wrote a letter.\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\nwe all thanked proog for the cake.\n",
]


def fix_by_keyboard(qtbot, window, word: str, key) -> int:
    """N to each flagged ``word`` and give it the tag of ``key``; returns how many were fixed."""
    state = window.session.state
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    fixed = 0
    for _ in range(len(list(state.positions()))):
        qtbot.keyClick(window.view, Qt.Key_N)
        pos = state.current
        if pos is not None and state.word(pos).form == word:
            qtbot.keyClick(window.view, key)
            fixed += 1
    return fixed


def test_a_profile_started_in_the_editor_learns_from_each_saved_episode(qtbot, make_window, tmp_path):
    paths = []
    for k, text in enumerate(EPISODES + [EPISODE]):
        p = tmp_path / f"ep{k + 1}.srt"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    window = make_window()
    open_and_wait(qtbot, window, paths[0])
    assert window.profiles.new_profile("Proog show")
    assert window.settings.profile == "Proog show"
    assert fix_by_keyboard(qtbot, window, "proog", Qt.Key_T) == 2
    assert window.saving.save_to(paths[0])
    assert "profile Proog show updated" in window.statusBar().currentMessage()
    assert profile_store.load("Proog show").active("word") == {}  # one file is not enough

    open_and_wait(qtbot, window, paths[1])  # opened with the profile: nothing to apply yet
    assert fix_by_keyboard(qtbot, window, "proog", Qt.Key_T) == 2
    assert window.saving.save_to(paths[1])
    learned = profile_store.load("Proog show")
    assert learned.active("word")["proog"].form == "Proog" and len(learned.sources["logs"]) == 2

    open_and_wait(qtbot, window, paths[2])  # the third episode starts with the name right
    assert window.session.doc.cues[0].text == "We met Proog at the station."
    assert fix_by_keyboard(qtbot, window, "proog", Qt.Key_T) == 0  # nothing left to fix there


def test_the_review_hints_in_the_window(qtbot, make_window, tmp_path, engines):
    # a confirm ("mall", written so in two earlier episodes) and an ask ("Boss" after "the", changed once)
    p = Profile("Mall show", engines.get().info.version)
    p.entries["confirm"]["mall"] = Entry("mall", decisions=2, changes=0, files=2)
    p.entries["ask"]["the|boss|again"] = Entry("Boss", decisions=1, changes=1, files=1)
    profile_store.save(p)
    path = tmp_path / "ep3.srt"
    path.write_text("1\n00:00:01,000 --> 00:00:02,000\ni told you about the mall.\n\n"
                    "2\n00:00:03,000 --> 00:00:04,000\nso he called the boss again.\n", encoding="utf-8")
    window = make_window()
    window.settings.profile = "Mall show"
    open_and_wait(qtbot, window, path)
    state = window.session.state
    mall = next(p for p in state.positions() if state.word(p).form.lower() == "mall")
    boss = next(p for p in state.positions() if state.word(p).form.lower() == "boss")
    assert state.word(mall).status is Status.PROFILE and not state.word(mall).needs_review(state.threshold)
    assert str(flag_reasons(state, mall)[0]).startswith("from your profile: your profile confirms 'mall'")
    assert state.word(boss).form == "boss" and state.word(boss).needs_review(state.threshold)
    assert "your profile saw this written 'Boss' after 'the'" in " ".join(map(str, flag_reasons(state, boss)))
    window.menus.act_profile_contents.trigger()
    dialog = window.profiles.profile_dialog
    qtbot.waitUntil(dialog.isVisible)
    rows = {dialog.table.item(r, 0).text(): dialog.table.item(r, 3).text() for r in range(dialog.table.rowCount())}
    assert rows == {"ask:the|boss|again": "1", "confirm:mall": "1"}
    # a wrong ask is removed in one step, and Edit > Undo raises the word again
    dialog.table.selectRow([dialog.table.item(r, 0).text() for r in range(2)].index("ask:the|boss|again"))
    qtbot.mouseClick(dialog.remove_button, Qt.LeftButton)
    assert not state.word(boss).needs_review(state.threshold)
    assert profile_store.load("Mall show").removed == ["ask:the|boss|again"]
    window.menus.act_undo.trigger()
    assert state.word(boss).needs_review(state.threshold) and profile_store.load("Mall show").removed == []
