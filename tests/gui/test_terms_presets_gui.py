"""File > Import Terms and the style-guide presets in the real window, offscreen."""

from __future__ import annotations

from subcase.gui.batch_dialog import BatchDialog
from subcase.review import Status
from subcase.review.profiles import store as profile_store
from subcase.review.flags import flag_reasons

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

TALK = ("1\n00:00:01,000 --> 00:00:02,500\nwe checked the pages with qualweb first.\n\n"
        "2\n00:00:03,000 --> 00:00:04,500\nthen qualweb found the missing labels.\n")


def test_import_terms_then_open_a_file(qtbot, make_window, tmp_path):
    caps = tmp_path / "dict_talks.txt"
    caps.write_text("# tools\nQualWeb\n", encoding="utf-8")
    window = make_window()
    assert window.menus.act_import_terms.isEnabled()
    window.profiles.import_terms("W3C talks", [caps])  # what the dialog does once a file and a profile are chosen
    qtbot.waitUntil(lambda: window.settings.profile == "W3C talks", timeout=20_000)
    assert "dict_talks.txt: 1 terms" in window.statusBar().currentMessage()
    assert profile_store.load("W3C talks").entries["term"]["qualweb"].form == "QualWeb"

    path = tmp_path / "talk.srt"
    path.write_text(TALK, encoding="utf-8")
    open_and_wait(qtbot, window, path)
    state = window.session.state
    places = [p for p in state.positions() if state.word(p).form == "QualWeb"]
    assert len(places) == 2 and all(state.word(p).status is Status.PROFILE for p in places)
    assert str(flag_reasons(state, places[0])[0]) == "from your profile: the term list 'dict_talks.txt' writes 'QualWeb'"


def test_a_bad_term_list_is_reported_not_raised(qtbot, make_window, tmp_path):
    bad = tmp_path / "names.xml"
    bad.write_text("<names><name>QualWeb</name>", encoding="utf-8")
    window = make_window()
    window.profiles.import_terms("W3C talks", [bad])
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=20_000)
    assert "names.xml" in window.last_error and "invalid XML" in window.last_error
    assert not profile_store.exists("W3C talks")


def test_a_style_guide_preset_sets_both_categories(qtbot, make_window, engines, tmp_path):
    window = make_window()
    window.menus.act_presets["netflix"].trigger()
    assert window.settings.house_style("sound-cues") == "lower"
    assert window.settings.house_style("speaker-labels") == "lower"
    assert window.menus.act_styles["sound-cues"]["lower"].isChecked()
    window.menus.act_presets["bbc"].trigger()
    assert window.menus.act_styles["sound-cues"]["upper"].isChecked()
    dialog = BatchDialog([tmp_path / "a.srt"], engines, window.settings, window)
    qtbot.addWidget(dialog)
    dialog.preset_combo.setCurrentIndex(dialog.preset_combo.findData("dcmp"))
    assert dialog.style_combos["sound-cues"].currentData() == "lower"
    assert dialog.style_combos["speaker-labels"].currentData() == "lower"
