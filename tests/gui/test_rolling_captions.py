"""A rolling caption in the editor: a real window offscreen, the real model, a file written in YouTube's word-level
layout from our own text (tests/fixtures/captions/make_rolling.py).

The editor shows the spoken text: no timing tags in the painted text, the 10 ms snapshot cues folded away, reading
speeds counted on what a viewer reads; one decision on a word changes every copy of it, one undo takes it back,
and saving writes the layout back byte for byte but for the letters changed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from subcase.gui.cue_layout import ELISION, CueLayout
from subcase.subtitles import load

from helpers.changes import assert_only_letters_and_marks

from .conftest import needs_model, open_and_wait
from .test_cue_view import paint_cue


def painted_text(layout: CueLayout) -> str:
    """The cue text the layout paints: runs joined, lines joined by newlines, elisions left out."""
    return "\n".join("".join(r.text for r in line.runs if r.kind != ELISION) for line in layout.lines)

CAPTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "captions"


def press(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.view, key, modifier)


@needs_model
def test_a_rolling_file_shows_its_spoken_text_and_one_decision_changes_every_copy(qtbot, make_window, tmp_path):
    src = tmp_path / "talk.en.vtt"
    shutil.copyfile(CAPTIONS / "youtube_new.vtt", src)
    window = make_window()
    window.resize(1600, 1000)
    open_and_wait(qtbot, window, src)
    view, session = window.view, window.session
    doc, state = session.doc, session.state
    model = view.cue_model

    # 1. the spoken text: the first cue's words without their timing tags, painted as they read
    first = doc.cues[0]
    assert "<00:00:00.400><c>" in first.text
    lay = view.delegate.layout(0, view.text_rect(0))
    shown = painted_text(lay)
    assert "<" not in shown and "c>" not in shown
    # (whatever marks the model restored: they are no part of this test)
    assert shown.strip().lower().translate(str.maketrans("", "", ",.?!")) == "last summer my sister and i drove from denver"
    painted = "".join(text for _, _, text, _ in paint_cue(view, 0).calls)
    assert "<" not in painted and "denver" in painted.lower()

    # 2. the snapshot cues (10 ms, nothing new) are folded; every other cue is shown
    snapshots = [r for r, cue in enumerate(doc.cues) if cue.end_ms - cue.start_ms == 10]
    assert snapshots and all(view.isRowHidden(r) for r in snapshots)
    assert not any(view.isRowHidden(r) for r in range(len(doc.cues)) if r not in snapshots)
    # reading speed on what a viewer reads: the new line of a cue, not the line it shows again
    cue = doc.cues[2]
    new_line = cue.plain_text().split("\n")[1]
    assert model.reading(2).cps == len(new_line) / ((cue.end_ms - cue.start_ms) / 1000)
    assert all(model.reading(r).cps < 100 for r in range(len(doc.cues)) if r not in snapshots)

    # 3. "denver" is shown in three cues and decided once: U writes all three, one Ctrl+Z takes them back
    places = [(c, s) for c, words in enumerate(state.cues) for s, w in enumerate(words) if w.form.lower() == "denver"]
    assert len(places) == 3 and state.copies[places[0]] == tuple(places)
    opened = doc.to_bytes()
    view.setFocus()
    state.current = places[0]
    window.details.show_word(state, places[0], window.decisions.write_tag, doc.cues[0].text)
    assert "spoken at 00:00:02.080" in window.details.where_label.text()
    assert "Shown again in cue 2, 3" in window.details.where_label.text()
    press(qtbot, window, Qt.Key_U)
    assert [state.word(p).form for p in places] == ["DENVER"] * 3
    assert window.review.undo_stack.count() == 1
    assert all("DENVER" in doc.cues[c].plain_text() for c, _ in places)
    press(qtbot, window, Qt.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.to_bytes() == opened

    # 4. saved: the layout as it was (tags, timing, snapshot cues), but for letters and the marks restored
    press(qtbot, window, Qt.Key_U)
    assert window.saving.save()
    saved = src.read_text(encoding="utf-8")
    assert saved == doc.render() and saved.count("DENVER") == 3
    assert_only_letters_and_marks((CAPTIONS / "youtube_new.vtt").read_text(encoding="utf-8"), saved, marks=",.?!")
    assert [(c.start_ms, c.end_ms) for c in load(src).cues] == [
        (c.start_ms, c.end_ms) for c in load(CAPTIONS / "youtube_new.vtt").cues]

