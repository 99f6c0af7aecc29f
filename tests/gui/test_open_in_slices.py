"""Opening a long file does not stop the window while its rows are laid out (issue #56 item 5).

The cue view lays a new document's rows out (heights, a rolling caption's snapshot rows folded) a slice per
event-loop turn, and ``casing_finished`` comes after the last slice.  A rolling caption of 18 cues in slices of
4 rows stands for the 37,500 rows of a three-hour stream in slices of ``CueView.SLICE_ROWS`` (how long a slice
keeps the window is measured by ``bench/long_file_gui.py``, docs/research/2026-11-29-open-in-slices.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QTimer

from .conftest import needs_model, open_and_wait

pytestmark = needs_model

CAPTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "captions"


def rolling_file(tmp_path: Path, name: str = "talk.en.vtt") -> Path:
    path = tmp_path / name
    shutil.copyfile(CAPTIONS / "youtube_new.vtt", path)
    return path


def assert_rows_folded(view) -> None:
    """Every snapshot cue (10 ms, nothing new) hidden, every other cue shown, each row as tall as its lines."""
    doc = view.cue_model.doc
    snapshots = {r for r, cue in enumerate(doc.cues) if cue.end_ms - cue.start_ms == 10}
    assert snapshots
    assert [view.isRowHidden(r) for r in range(len(doc.cues))] == [r in snapshots for r in range(len(doc.cues))]
    heights = [view.rowHeight(r) for r in range(len(doc.cues))]
    view.fit_rows()  # the whole pass at once: the heights the slices should have set
    assert heights == [view.rowHeight(r) for r in range(len(doc.cues))]


def test_the_event_loop_turns_while_the_rows_of_an_opened_file_are_laid_out(qtbot, make_window, tmp_path):
    window = make_window()
    window.view.SLICE_ROWS = 4  # 18 cues: five slices
    beats: list[int] = []
    heartbeat = QTimer(window)
    heartbeat.setInterval(0)
    heartbeat.timeout.connect(lambda: beats.append(1))
    at: dict[str, int] = {}
    window.review.opened.connect(lambda: at.setdefault("opened", len(beats)))
    window.review.casing_finished.connect(lambda: at.setdefault("finished", len(beats)))
    heartbeat.start()
    open_and_wait(qtbot, window, rolling_file(tmp_path))
    heartbeat.stop()

    # the window answered between the review's install and the end of the opening
    assert at["finished"] > at["opened"], at
    assert not window.view.laying_out
    assert_rows_folded(window.view)  # as after one pass: casing_finished waits for the last slice


def test_closing_a_file_while_its_rows_are_laid_out(qtbot, make_window, tmp_path):
    window = make_window()
    view = window.view
    view.SLICE_ROWS = 4
    finished: list[int] = []
    window.review.casing_finished.connect(lambda: finished.append(1))

    # closed after its first slices: the slices stop, the opening never says it finished, nothing is left over
    def close_soon() -> None:
        QTimer.singleShot(0, window.review.close)
    window.review.opened.connect(close_soon)
    with qtbot.waitSignal(window.review.closed, timeout=180_000):
        window.opening.open_file(rolling_file(tmp_path))
    window.review.opened.disconnect(close_soon)
    qtbot.wait(200)
    assert finished == [] and window.session is None
    assert view.cue_model.rowCount() == 0 and not view.laying_out

    # opened again: it finishes once, its rows as in one pass
    open_and_wait(qtbot, window, rolling_file(tmp_path, "again.en.vtt"))
    qtbot.wait(200)
    assert finished == [1]
    assert not view.laying_out
    assert_rows_folded(view)
