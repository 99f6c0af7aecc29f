"""Take the README screenshot of the real window (run under Xvfb, not offscreen).

    xvfb-run -a -s "-screen 0 1280x800x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot tests/gui/data/sample.srt resources/screenshot.png
    xvfb-run -a -s "-screen 0 1280x800x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot --learning tests/gui/data/sdh.srt resources/screenshot-learning.png

Opens the file with the real model, makes a few review decisions so every
word state shows (to review, accepted, changed), and grabs the window.  With
``--learning`` it instead fixes the first word of a sound cue (to UPPER, or to
lower if the model wrote it UPPER), so the other sound cues show as "changed
by what you taught", and leaves the cursor on one of them so the status bar
shows why.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def main(argv: list[str]) -> int:
    learning = "--learning" in argv
    argv = [a for a in argv if a != "--learning"]
    src, out = Path(argv[0]), Path(argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        # Never touch the real settings or edit logs, nor the input file.
        os.environ["SUBCASE_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["SUBCASE_CONFIG_DIR"] = str(Path(tmp) / "config")
        work = Path(tmp) / src.name
        work.write_bytes(src.read_bytes())

        from PySide6.QtCore import QEventLoop, QTimer
        from PySide6.QtWidgets import QMessageBox

        from subcase.casing import Tag

        from .app import make_app
        from .main_window import MainWindow

        app = make_app()
        window = MainWindow()
        window.ask = lambda *a: QMessageBox.Discard
        window.resize(1180, 640)
        window.show()
        loop = QEventLoop()
        window.casing_finished.connect(loop.quit)
        window.casing_failed.connect(lambda m: (print(m, file=sys.stderr), loop.quit()))
        window.open_file(work)
        loop.exec()
        if window.session is None:
            return 1
        state = window.session.state
        if state.to_review() < 6:  # make sure the picture shows words to review
            confs = sorted(w.confidence for w in state.all_words())
            window.threshold_spin.setDecimals(3)
            window.threshold_spin.setValue(min(1.0, confs[min(len(confs) - 1, 7)] + 0.001))
        if learning:
            _teach_a_sound_cue(window)
        else:
            window.next_to_review()
            window.accept_word()          # accepted (green, check mark)
            pos = state.current
            if pos is not None:
                w = state.word(pos)
                window.set_tag(Tag.U if w.tag is not Tag.U else Tag.T)  # changed (blue, pencil)
        window.view.setFocus()
        QTimer.singleShot(800, loop.quit)
        loop.exec()
        screen = window.screen()
        pixmap = screen.grabWindow(window.winId()) if app.platformName() == "xcb" else window.grab()
        if pixmap.isNull():
            pixmap = window.grab()
        out.parent.mkdir(parents=True, exist_ok=True)
        ok = pixmap.save(str(out))
        print(f"{'saved' if ok else 'could not save'} {out} ({pixmap.width()}x{pixmap.height()}, "
              f"platform {app.platformName()})")
        window.close()
        return 0 if ok else 1


def _teach_a_sound_cue(window) -> None:
    """Fix the first sound-cue word the model wrote lower case (or else UPPER) to the other style."""
    from subcase.casing import Tag
    from subcase.review import Status
    from subcase.review.housestyle import Category, categories_of

    session = window.session
    cats = categories_of(session.doc, session.state)
    sound = sorted(p for p, c in cats.items() if c is Category.SOUND)
    if not sound:
        return
    lower = [p for p in sound if session.state.word(p).tag is Tag.L]
    pos = lower[0] if lower else sound[0]
    window.goto(pos)
    window.set_tag(Tag.U if lower else Tag.L, advance=False)
    learned = [p for p in session.state.positions() if session.state.word(p).status is Status.LEARNED]
    if learned:
        window.goto(learned[len(learned) // 2])
    window.statusBar().clearMessage()  # the word label (with its reasons) instead of "Cased N words"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
