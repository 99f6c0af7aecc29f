"""The editor restores a crashed review whose file was opened with its punctuation restored: the origin is
cased again with the same ``punctuate`` choice, so the marks, and what the editor made of them, come back."""

from __future__ import annotations

import json

from subcase.casing.marks import MARKS
from subcase.evaluation.simulate import input_text
from subcase.review import Accept, SetMark, Status, autosave
from subcase.review.opening import OpenOptions, open_review
from subcase.subtitles import load

from .conftest import DATA, needs_model

pytestmark = needs_model


def test_the_window_restores_a_review_with_restored_marks(qtbot, make_window, engines, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    src = load(DATA / "sample.srt")
    for c, cue in enumerate(src.cues):
        src.set_cue_text(c, input_text(cue.text, cue.tokens(), strip_punct=True, upper=False))
    path = tmp_path / "asr.srt"
    path.write_bytes(src.to_bytes())
    engine = engines.get()
    # the review as the editor left it when it crashed: opened with marks restored, one accepted, one changed
    session = open_review(path, engine, OpenOptions(mode="restore", learning=False, punctuate="always"))
    state = session.state
    marked = [p for p in state.positions() if state.word(p).mark is not None]
    assert len(marked) >= 2, "the unpunctuated sample is opened with marks restored"
    session.perform(Accept(marked[0]))
    now = state.word(marked[1]).mark.now
    session.perform(SetMark(marked[1], MARKS[(MARKS.index(now) + 1) % len(MARKS)], engine.form))
    data = session.snapshot()
    assert data["punctuate"] == "always" and autosave.needs_casing(data)
    data["pid"] = 2 ** 22 + 12345  # a process that is not running: as after a crash
    autosave.write_snapshot(data)
    expected = (session.doc.to_bytes(), [[(w.start, w.end, w.form, w.status, w.mark) for w in words]
                                         for words in state.cues])
    session.close()

    window = make_window()
    window.ask = lambda *a: QMessageBox.Yes
    with qtbot.waitSignal(window.review.casing_finished, timeout=180_000):
        assert window.recovery.check_recovery()
    restored = window.session
    assert restored.doc.to_bytes() == expected[0]
    assert [[(w.start, w.end, w.form, w.status, w.mark) for w in words] for words in restored.state.cues] == expected[1]
    assert [restored.state.word(p).mark.status for p in marked[:2]] == [Status.ACCEPTED, Status.CHANGED]
    # the snapshot the restored window writes keeps the choice for a second crash
    assert restored.punctuate == "always"
    assert json.loads(autosave.encode(restored.snapshot()))["punctuate"] == "always"
