"""A key on a long file costs the cues it changes (issue #56 item 5): the views repaint those rows only, the
status bar's counts are counted again for those cues only, and the document's structure is not rebuilt.

How fast that is on a three-hour stream is measured by ``bench/long_file_gui.py`` (docs/research), not here:
these tests pin the paths that keep it so."""

from __future__ import annotations

from PySide6.QtCore import Qt

from .conftest import long_srt, needs_model, open_and_wait

pytestmark = needs_model


class Repaints:
    """What the cue table's model told the view: the rows of each dataChanged, and any reset or relayout."""

    def __init__(self, model):
        self.rows: set[int] = set()
        self.whole: list[str] = []
        model.dataChanged.connect(lambda a, b, *_: self.rows.update(range(a.row(), b.row() + 1)))
        model.modelReset.connect(lambda: self.whole.append("reset"))
        model.layoutChanged.connect(lambda *_: self.whole.append("layoutChanged"))


def test_a_key_repaints_and_recounts_only_the_cues_it_changes(qtbot, make_window, tmp_path):
    window = make_window()
    open_and_wait(qtbot, window, long_srt(tmp_path / "long.srt", cues=300))
    session = window.session
    state = session.state
    structure = session.structure.of(session.doc, state)
    assert session.tally.recounted == set()  # counted whole when the file opened; nothing changed since
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)
    changes: list[tuple[int, ...]] = []
    window.review.changed.connect(changes.append)

    qtbot.keyClick(window.view, Qt.Key_N)
    before = state.current
    qtbot.keyClick(window.view, Qt.Key_N)  # the cue it leaves and the cue it reaches, nothing else
    assert before is not None and state.current is not None
    assert len(changes) == 2 and set(changes[-1]) == {before[0], state.current[0]}, changes

    for key in (Qt.Key_U, Qt.Key_L, Qt.Key_T, Qt.Key_Return):
        at = state.current
        repaints = Repaints(window.view.cue_model)
        qtbot.keyClick(window.view, key)
        rows = set(changes[-1])
        # its cue, the next one, where the cursor went, and the cues learning re-cased from the fix
        assert at is not None and at[0] in rows and len(rows) < 300, (key, rows)
        assert repaints.rows == rows and repaints.whole == [], (key, repaints.rows, repaints.whole)
        assert session.tally.recounted is not None and at[0] in session.tally.recounted <= rows
        assert session.counts() == state.counts()  # the kept counts are the counts
        assert window.status.count_label.text().startswith(f"{state.counts()['to_review']} to review")
        assert session.structure.of(session.doc, state) is structure  # no tag or accept moves a sentence start

    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)
    assert session.counts() == state.counts() and window.view.cue_model.rowCount() == 300


def test_a_cue_edit_is_counted_and_structured_again(qtbot, make_window, tmp_path):
    """A text edit replaces the cue's words: the tally counts that cue again, the structure sees its new
    sentence start, and the rest of the file's counts stand."""
    window = make_window()
    open_and_wait(qtbot, window, long_srt(tmp_path / "long.srt", cues=60))
    session = window.session
    state = session.state
    before = session.structure.of(session.doc, state)
    with qtbot.waitSignal(window.review.cue_text_edited, timeout=60_000):
        window.cue_editing.edit_cue_text_cased(10, "we left. nobody saw us")
    recounted = session.tally.recounted  # by the status bar, after the edit
    assert recounted is not None and 10 in recounted and len(recounted) <= 3, recounted
    assert session.counts() == state.counts()
    after = session.structure.of(session.doc, state)
    assert after is not before and after.initial[(10, 2)] is True  # "nobody" opens a sentence now
