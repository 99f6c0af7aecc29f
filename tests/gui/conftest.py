"""GUI tests: the real window, offscreen, with the real ONNX model.

Settings and user data go to a temporary folder (SUBCASE_CONFIG_DIR,
SUBCASE_DATA_DIR), never to the real home directory.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from subcase.paths import models_dir  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
HAVE_MODEL = (models_dir() / "model.onnx").is_file()
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason=f"no casing model at {models_dir() / 'model.onnx'}")


def wait_for_emission(qtbot, signal, timeout: int) -> list[tuple]:
    """Wait until `signal` has been emitted once; return the arguments seen so far.

    For signals a worker emits again and again (progress, file done): pytest-qt's
    waitSignal disconnects its blocker's bound method on the first emission and the
    blocker is freed, yet an emission already queued from the worker thread is still
    delivered to that address.  In CI it once reached a later qtbot.wait blocker
    ("'MultiSignalBlocker' object has no attribute 'check_params_callback'"), and once
    a later waitSignal(finished_batch), whose args then were file_done's (an int first).  A plain
    closure stays connected, and PySide6 keeps it alive, so late emissions land safely.
    """
    seen: list[tuple] = []
    signal.connect(lambda *args: seen.append(args))
    qtbot.waitUntil(lambda: bool(seen), timeout=timeout)
    return seen


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(tmp_path / "user-data"))
    monkeypatch.setenv("SUBCASE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


@pytest.fixture(scope="session")
def engines():
    """One real engine for the whole run (loading it takes about a second)."""
    if not HAVE_MODEL:
        pytest.skip(f"no casing model at {models_dir() / 'model.onnx'}")
    from subcase.gui.workers import EngineHolder

    holder = EngineHolder()  # the engine exactly as the app builds it
    holder.get()
    return holder


@pytest.fixture
def sample(tmp_path) -> Path:
    p = tmp_path / "films" / "sample.srt"
    p.parent.mkdir()
    shutil.copy(DATA / "sample.srt", p)
    return p


@pytest.fixture
def make_window(qtbot, engines):
    from PySide6.QtWidgets import QMessageBox

    from subcase.gui.main_window import MainWindow
    from subcase.gui.settings import Settings

    made = []

    def make():
        w = MainWindow(engines=engines, settings=Settings())
        w.ask = lambda *a: QMessageBox.Discard  # tests never wait for a human
        w.saving.offer_save_as = lambda _reason: False  # a failed save: no Save As
        qtbot.addWidget(w)
        w.show()
        made.append(w)
        return w

    yield make
    for w in made:
        w.ask = lambda *a: QMessageBox.Discard
        w.close()


def open_and_wait(qtbot, window, path: Path, timeout: int = 180_000) -> None:
    with qtbot.waitSignal(window.review.casing_finished, timeout=timeout):
        window.opening.open_file(path)


def long_srt(path: Path, cues: int = 1500) -> Path:
    """A film-length lowercase SRT built from varied sentences."""
    lines = ["i told john we would meet at the station in london.",
             "the fbi never called back about the iphone.",
             "where were you on tuesday night, mr. brown?",
             "nasa says the launch is delayed until march.",
             "we can't stay here, they know about paris.",
             "dr. jones and sarah left for new york yesterday.",
             "i don't think the bbc will air it in france.",
             "come on, the game starts at nine o'clock."]
    out = []
    for i in range(cues):
        s = 1000 + i * 2500
        e = s + 2000
        t = lambda ms: f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
        text = lines[i % len(lines)]
        if i % 3 == 0:
            text += "\n" + lines[(i * 5 + 1) % len(lines)]
        out.append(f"{i + 1}\n{t(s)} --> {t(e)}\n{text}\n")
    path.write_text("\n".join(out), encoding="utf-8")
    return path


def open_and_change_a_word(qtbot, window, path: Path, key=None) -> None:
    """Open ``path``, go to the first word to review (N) and set it UPPER (U), by keyboard."""
    from PySide6.QtCore import Qt

    open_and_wait(qtbot, window, path)
    window.view.setFocus()
    qtbot.keyClick(window.view, key if key is not None else Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_U)
    assert window.review.is_modified()
