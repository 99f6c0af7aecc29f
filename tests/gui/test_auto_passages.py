"""Auto mode in the window: a marker per cue, the passages in the status line, one key for the model's form."""

from __future__ import annotations

from PySide6.QtCore import Qt

from subcase.casing.auto import NOTES, Passage
from subcase.casing import Tag
from subcase.gui.cue_model import COL_NUM, PASSAGE_COLOURS

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

# Cue 1 writes "Web" where the model is sure of "web"; cues 2-3 lost their casing ("i").
MIXED = """1
00:00:01,000 --> 00:00:03,000
Hello, this is the BBC News about the World Wide Web.

2
00:00:03,500 --> 00:00:05,000
and then i went to the station

3
00:00:05,000 --> 00:00:07,000
and i saw a man there

4
00:00:07,500 --> 00:00:09,000
It was Mr. Smith from London.
"""


def test_each_cue_shows_its_passage_and_the_status_line_counts_them(qtbot, make_window, tmp_path):
    src = tmp_path / "mixed.srt"
    src.write_text(MIXED, encoding="utf-8")
    window = make_window()
    assert window.settings.mode == "auto"  # the default
    open_and_wait(qtbot, window, src)
    model = window.view.cue_model
    expected = [Passage.KEEP, Passage.RESTORE, Passage.RESTORE, Passage.KEEP]
    assert window.session.state.passages == expected
    for row, passage in enumerate(expected):
        index = model.index(row, COL_NUM)
        assert model.data(index, Qt.DecorationRole) == PASSAGE_COLOURS[passage]
        assert model.data(index, Qt.ToolTipRole) == f"Auto mode: {NOTES[passage]}"
    assert "auto: 2 cue(s) lower case, restored, 2 cue(s) cased, kept" in window.statusBar().currentMessage()
    doc = window.session.doc
    assert doc.cues[0].text == MIXED.split("\n\n")[0].splitlines()[2]  # kept as written
    assert " I went " in doc.cues[1].text


def test_one_key_takes_the_model_s_form_of_a_kept_word(qtbot, make_window, tmp_path):
    src = tmp_path / "mixed.srt"
    src.write_text(MIXED, encoding="utf-8")
    window = make_window()
    open_and_wait(qtbot, window, src)
    state = window.session.state
    # a kept word, and a scripted disagreement on it: the rule is tested, not a near-tie of the model
    word = state.word((3, 0))                 # "It"
    word.model_tag = Tag.L
    word.raised = "the input writes 'It'; the model would write 'it'"
    state.current = (3, 0)
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    qtbot.keyClick(window.view, Qt.Key_Y)
    assert state.word((3, 0)).form == "it"
    assert window.session.doc.cues[3].text.startswith("it was")
    window.review.undo_stack.undo()
    assert window.session.doc.cues[3].text.startswith("It was")
