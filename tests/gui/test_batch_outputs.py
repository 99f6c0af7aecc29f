"""The batch dialog asks once when outputs exist: overwrite, skip existing, choose another
folder, or cancel.  A real dialog offscreen, its real question box answered by clicking, the
real model; the plan behind it is ``subcase convert``'s (outputs.OutputPlan)."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt, QTimer

from .conftest import needs_model

pytestmark = needs_model
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
PRECIOUS = b"PRECIOUS\n"


def make_series(root: Path) -> Path:
    for n in (1, 2):
        (root / "in" / f"film{n}").mkdir(parents=True)
        shutil.copy(EXAMPLE, root / "in" / f"film{n}" / "English.srt")
    return root / "in"


def open_dialog(qtbot, engines, src: Path, out: Path):
    from subcase.gui.batch_dialog import BatchDialog
    from subcase.gui.settings import Settings

    dialog = BatchDialog([src], engines, Settings())
    qtbot.addWidget(dialog)
    dialog.out_edit.setText(str(out))
    dialog.jobs_spin.setValue(1)
    return dialog


def answer(find, button_text: str, before=None, seen: list | None = None) -> None:
    """When the box find() returns is showing, run before(box), then click button_text."""
    def poll() -> None:
        box = find()
        if box is None or not box.isVisible():
            QTimer.singleShot(20, poll)
            return
        if seen is not None:
            seen.append(box.text())
        if before is not None:
            before(box)
        next(b for b in box.buttons() if b.text() == button_text).click()
    QTimer.singleShot(0, poll)


def start_and_wait(qtbot, dialog):
    with qtbot.waitSignal(dialog.finished_batch, timeout=180_000) as done:
        qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    return done.args[0]


def test_skip_existing_keeps_the_reviewed_file_and_converts_the_rest(qtbot, engines, tmp_path):
    src = make_series(tmp_path)
    out = tmp_path / "out"
    (out / "film1").mkdir(parents=True)
    (out / "film1" / "English.srt").write_bytes(PRECIOUS)
    dialog = open_dialog(qtbot, engines, src, out)
    seen: list[str] = []
    answer(lambda: dialog.existing_outputs_box, "Skip existing", seen=seen)
    result = start_and_wait(qtbot, dialog)
    assert len(seen) == 1 and str(out / "film1" / "English.srt") in seen[0]  # asked once, naming the file
    assert [r.skipped for r in result.results] == [True, False] and not result.failed
    assert (out / "film1" / "English.srt").read_bytes() == PRECIOUS
    assert b"NASA" in (out / "film2" / "English.srt").read_bytes()  # mirrored: film2/English.srt
    assert "1 converted, 0 failed, 1 skipped" in dialog.report_text
    assert [bar.format() for bar in dialog.bars] == ["skipped", "done"]


def test_overwrite_replaces_a_link_itself_never_its_target(qtbot, engines, tmp_path):
    src = make_series(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(PRECIOUS)
    out = tmp_path / "out"
    (out / "film1").mkdir(parents=True)
    (out / "film1" / "English.srt").symlink_to(notes)
    dialog = open_dialog(qtbot, engines, src, out)
    seen: list[str] = []
    answer(lambda: dialog.existing_outputs_box, "Overwrite", seen=seen)
    result = start_and_wait(qtbot, dialog)
    assert f"(a symbolic link to {notes})" in seen[0]
    assert [r.ok for r in result.results] == [True, True]
    assert notes.read_bytes() == PRECIOUS
    written = out / "film1" / "English.srt"
    assert not written.is_symlink() and b"NASA" in written.read_bytes()


def test_choose_another_folder_converts_there_and_leaves_the_first(qtbot, engines, tmp_path):
    src = make_series(tmp_path)
    out = tmp_path / "out"
    (out / "film2").mkdir(parents=True)
    (out / "film2" / "English.srt").write_bytes(PRECIOUS)
    other = tmp_path / "other"
    other.mkdir()
    dialog = open_dialog(qtbot, engines, src, out)

    def pick(_box) -> None:
        def in_file_dialog() -> None:
            d = dialog.output_folder_dialog
            if d is None or not d.isVisible():
                QTimer.singleShot(20, in_file_dialog)
                return
            d.setDirectory(str(other))
            d.selectFile(str(other))
            d.accept()
        QTimer.singleShot(0, in_file_dialog)

    answer(lambda: dialog.existing_outputs_box, "Choose another folder\u2026", before=pick)
    result = start_and_wait(qtbot, dialog)
    assert [r.ok for r in result.results] == [True, True]
    assert [r.dst for r in result.results] == [other / "film1" / "English.srt", other / "film2" / "English.srt"]
    assert (out / "film2" / "English.srt").read_bytes() == PRECIOUS and not (out / "film1").exists()
    assert dialog.settings.output_dir == str(other)


def test_cancel_starts_nothing(qtbot, engines, tmp_path):
    src = make_series(tmp_path)
    out = tmp_path / "out"
    (out / "film1").mkdir(parents=True)
    (out / "film1" / "English.srt").write_bytes(PRECIOUS)
    dialog = open_dialog(qtbot, engines, src, out)
    asked: list[str] = []
    answer(lambda: dialog.existing_outputs_box, "Cancel", seen=asked)
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(asked) and dialog.existing_outputs_box is None, timeout=10_000)
    assert dialog.task is None and dialog.start_button.isEnabled()
    assert (out / "film1" / "English.srt").read_bytes() == PRECIOUS and not (out / "film2").exists()
