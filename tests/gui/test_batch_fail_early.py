"""The batch dialog refuses an output folder that cannot take the outputs before any file is cased:
a read-only one, or an input folder.  A real dialog offscreen, a real read-only mount."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from .conftest import needs_model
from .test_batch_outputs import open_dialog

pytestmark = needs_model
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"


def make_inputs(root: Path) -> Path:
    src = root / "in"
    src.mkdir()
    for name in ("a.srt", "b.srt"):
        shutil.copy(EXAMPLE, src / name)
    return src


def test_a_read_only_output_folder_is_reported_before_the_batch_starts(qtbot, engines, tmp_path, tmpfs):
    """Before: the batch ran, and every file failed after it was cased."""
    src = make_inputs(tmp_path)
    out = tmpfs("64k", read_only=True)
    dialog = open_dialog(qtbot, engines, src, out)
    finished: list = []
    dialog.finished_batch.connect(finished.append)
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    text = dialog.report.toPlainText()
    assert text.startswith(f"{out}: the output folder is not writable") and "Read-only file system" in text
    assert dialog.task is None and not finished and dialog.start_button.isEnabled()


def test_the_input_folder_as_output_folder_is_reported(qtbot, engines, tmp_path):
    """Before: the walk left the output folder out, so the batch found no file and said nothing more."""
    src = make_inputs(tmp_path)
    dialog = open_dialog(qtbot, engines, src, tmp_path / "cased")
    dialog.out_edit.setText(str(src))
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    assert "the output folder is the input folder" in dialog.report.toPlainText()
    assert dialog.task is None
    assert sorted(p.name for p in src.iterdir()) == ["a.srt", "b.srt"]
